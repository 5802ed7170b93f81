import { QUOTE_FIGURES, type Quote } from '../../shared/quote'
import { FRAME_FIELDS, QUOTE_SOURCES } from '../../shared/quote-frame'
import { AT_RECEIVED, AT_TS, held, type FigureMirror } from '../push/figure-mirror'

/**
 * Writing a changed entry into the bridge frame (QuoteStore.drainFrame; shared/quote-frame for
 * the layout): its changed values in frame order, the times as offsets from the frame's base.
 */

const FIELD_COUNT = QUOTE_FIGURES.length
// The frame's bits: QUOTE_FIGURES first (FRAME_FIELDS starts with the same list), then these.
export const BIT_TS = 1 << FRAME_FIELDS.indexOf('ts')
export const BIT_RECEIVED = 1 << FRAME_FIELDS.indexOf('receivedAt')
export const BIT_SOURCE = 1 << FRAME_FIELDS.indexOf('source')
export const BIT_STALE = 1 << FRAME_FIELDS.indexOf('stale')
export const BIT_MID = 1 << FRAME_FIELDS.indexOf('lastIsMid')
const ALL_BITS = (1 << FRAME_FIELDS.length) - 1
/** A symbol the renderer has not seen yet: its patch carries every field. */
export const FULL = -1

/** What the drain reads of a store entry. */
export interface DrainedEntry {
  readonly quote: Quote
  /** Bit i set = FRAME_FIELDS[i] changed since the last drain; FULL for a new entry. */
  dirty: number
  /** Its offset in the store's FigureMirror. */
  readonly at: number
}

/**
 * The frame's times as offsets from its base (shared/quote-frame): a whole-ms time goes as a
 * small integer and its index is kept, in case a later time is not whole and the frame must
 * fall back to absolute times. Module state: one drain runs at a time.
 */
export const times = { base: 0, at: [] as number[], absolute: false }

function pushTime(values: Array<number | null>, t: number): void {
  const offset = t - times.base
  if (Number.isSafeInteger(t) && Number.isSafeInteger(offset)) {
    times.at.push(values.length)
    values.push(offset)
  } else {
    times.absolute = true
    values.push(t)
  }
}

/**
 * Appends the entry's changed values to `values` in frame order; returns the frame mask. Reads
 * the mirror, not the quote (figure-mirror.ts), but for source and the flags. A field back at the
 * value last drained (A -> B -> A within one frame) is left out: "changed fields only".
 */
export function writeEntry(
  entry: DrainedEntry,
  values: Array<number | null>,
  mirror: FigureMirror,
): number {
  const figs = mirror.figs
  const sent = mirror.sent
  const at = entry.at
  const full = entry.dirty === FULL
  let mask = full ? ALL_BITS : entry.dirty
  for (let i = 0; i < FIELD_COUNT; i++) {
    const b = 1 << i
    if ((mask & b) === 0) continue
    const v = figs[at + i] as number
    const was = sent[at + i] as number
    // A dirty figure holds a number (fields never go back to null): no NaN to compare.
    if (!full && v === was) {
      mask &= ~b
      continue
    }
    sent[at + i] = v
    values.push(held(v))
  }
  if ((mask & BIT_TS) !== 0) pushTime(values, figs[at + AT_TS] as number)
  if ((mask & BIT_RECEIVED) !== 0) pushTime(values, figs[at + AT_RECEIVED] as number)
  const q = entry.quote
  if ((mask & BIT_SOURCE) !== 0) values.push(QUOTE_SOURCES.indexOf(q.source))
  if ((mask & BIT_STALE) !== 0) values.push(q.stale ? 1 : 0)
  if ((mask & BIT_MID) !== 0) values.push(q.lastIsMid === true ? 1 : 0)
  return mask
}

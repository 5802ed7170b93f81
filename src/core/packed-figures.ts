import { QUOTE_FIGURES, type QuoteFigure } from '../shared/quote'

/** quote-fields.ts's QuoteFields, spelt out here: that module unpacks through this one. */
type QuoteFields = Partial<Record<QuoteFigure, number>>

/**
 * A tick's figures as the push scanner read them, kept in numbers instead of a fields object
 * per tick (render bench, issue 25: building that object and merging it by name was ~11% of the
 * host at 10k ticks/s). Bit i of `mask` set = QUOTE_FIELDS[i] was in the tick, its value in
 * values[i]; other slots hold whatever an earlier tick left. The store merges this form directly
 * (quote-merge.ts mergePacked); unpackFigures makes the fields object parseFrame would have made.
 */
export interface PackedFigures {
  mask: number
  readonly values: Float64Array
}

export const FIGURE_COUNT = QUOTE_FIGURES.length
/** Every figure's bit. */
export const FIGURE_BITS = (1 << FIGURE_COUNT) - 1

export function newPackedFigures(): PackedFigures {
  return { mask: 0, values: new Float64Array(FIGURE_COUNT) }
}

/**
 * The fields object as pickQuoteFieldsIfAny builds it: same keys, same order; null when the mask
 * has no figure. Written out field by field: a keyed store `f[name]` in a loop went megamorphic
 * (~2% of the host at 10k ticks/s, perf), named stores follow one chain of shapes.
 */
export function unpackFigures(mask: number, values: Float64Array): QuoteFields | null {
  if ((mask & FIGURE_BITS) === 0) return null
  const f: QuoteFields = {}
  if ((mask & 1) !== 0) f.last = values[0] as number
  if ((mask & 2) !== 0) f.change = values[1] as number
  if ((mask & 4) !== 0) f.changePercent = values[2] as number
  if ((mask & 8) !== 0) f.open = values[3] as number
  if ((mask & 16) !== 0) f.high = values[4] as number
  if ((mask & 32) !== 0) f.low = values[5] as number
  if ((mask & 64) !== 0) f.prevClose = values[6] as number
  if ((mask & 128) !== 0) f.volume = values[7] as number
  if ((mask & 256) !== 0) f.quoteVolume = values[8] as number
  if ((mask & 512) !== 0) f.bid = values[9] as number
  if ((mask & 1024) !== 0) f.ask = values[10] as number
  if ((mask & 2048) !== 0) f.bidSize = values[11] as number
  if ((mask & 4096) !== 0) f.askSize = values[12] as number
  if ((mask & 8192) !== 0) f.trades = values[13] as number
  return f
}

/** values[i] = v and i's bit when the figure is present; 0 and nothing written when not. */
function put(values: Float64Array, i: number, v: number | undefined): number {
  if (v === undefined) return 0
  values[i] = v
  return 1 << i
}

/**
 * unpackFigures' inverse: the fields' figures into `values`, their bits returned. Named reads,
 * one per figure: a for-in with keyed reads went megamorphic (bench/ingest).
 */
export function packFields(f: QuoteFields, values: Float64Array): number {
  return (
    put(values, 0, f.last) |
    put(values, 1, f.change) |
    put(values, 2, f.changePercent) |
    put(values, 3, f.open) |
    put(values, 4, f.high) |
    put(values, 5, f.low) |
    put(values, 6, f.prevClose) |
    put(values, 7, f.volume) |
    put(values, 8, f.quoteVolume) |
    put(values, 9, f.bid) |
    put(values, 10, f.ask) |
    put(values, 11, f.bidSize) |
    put(values, 12, f.askSize) |
    put(values, 13, f.trades)
  )
}

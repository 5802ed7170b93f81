import type { Clock } from '../clock'
import { QUOTE_FIGURES } from '../../shared/quote'
import type { QuoteUpdate } from './quote-fields'
import {
  B_CHANGE,
  B_CHANGE_PCT,
  B_LAST,
  B_PREV_CLOSE,
  mergeFields,
  mergePacked,
} from './quote-merge'
import { AT_RECEIVED, AT_TS, FigureMirror, held } from '../push/figure-mirror'
import { blankQuote, type Quote, type QuotePatch } from '../../shared/quote'
import {
  decodeQuoteFrame,
  FRAME_FIELDS,
  QUOTE_SOURCES,
  type QuoteFrame,
} from '../../shared/quote-frame'
import type { Market, SymbolKey } from '../../shared/markets/market'
import { newSymbolSlot, type QuoteEntry } from '../push/symbol-slot'

/**
 * The latest known Quote per symbol, merged from partial updates of both transports.
 *
 * Per-symbol states:
 *   (absent) --apply--> fresh (source stream|poll)
 *   (absent) --seed---> cached (source 'cache', stale: a price from disk is never current)
 *   fresh|cached --markStale--> stale
 *   stale|cached --apply--> fresh
 *
 * Hot path (>= 100k updates/s): apply() mutates the stored Quote in place, looks it up through a
 * two-level map (market -> symbol) so no key string is built per update (the quote's `key` is
 * built once, so consumers use it instead of building their own), and records what changed
 * as a bit mask in the bridge frame's own field order (shared/quote-frame), so drainFrame() writes
 * the "changed fields only" frame straight from the quotes: no patch object per symbol per flush.
 * Objects returned by apply() and get() are the store's own: read them, do not keep or mutate them.
 */

const FIELD_COUNT = QUOTE_FIGURES.length
// The frame's bits: QUOTE_FIGURES first (FRAME_FIELDS starts with the same list), then these.
const BIT_TS = 1 << FRAME_FIELDS.indexOf('ts')
const BIT_RECEIVED = 1 << FRAME_FIELDS.indexOf('receivedAt')
const BIT_SOURCE = 1 << FRAME_FIELDS.indexOf('source')
const BIT_STALE = 1 << FRAME_FIELDS.indexOf('stale')
const ALL_BITS = (1 << FRAME_FIELDS.length) - 1
const I_LAST = QUOTE_FIGURES.indexOf('last')
const I_CHANGE = QUOTE_FIGURES.indexOf('change')
const I_CHANGE_PCT = QUOTE_FIGURES.indexOf('changePercent')
const I_PREV_CLOSE = QUOTE_FIGURES.indexOf('prevClose')
/** change/changePercent are derived only when one of these moved in the update. */
const PRICE_BITS = B_LAST | B_PREV_CLOSE
/**
 * How far the previous close a push's change implies may sit from the held one before the held
 * one counts as another day's: relative, well above the rounding of a service's change (a tick)
 * or changePercent (0.01 % at two decimals is 5e-5), and a day's close that sits closer to the
 * last one than this shifts change % by under 0.01 points.
 */
const DAY_TOLERANCE = 1e-4
/** A symbol the renderer has not seen yet: its patch carries every field. */
const FULL = -1

export type { QuoteEntry }

interface Entry extends QuoteEntry {
  quote: Quote
  /** The store holding it, and whether it still does: checked before trusting a SymbolRef. */
  readonly owner: QuoteStore
  live: boolean
  /** Bit i set = QUOTE_FIGURES[i] changed since the last drain; FULL for a new entry. */
  dirty: number
  /**
   * Its offset in the store's FigureMirror: its numbers, and its figures as last drained (a field
   * that moved and moved back within one frame, A -> B -> A, is not sent again: bench/bridge,
   * "changed fields only").
   */
  readonly at: number
}

export class QuoteStore {
  private readonly byMarket = new Map<Market, Map<string, Entry>>()
  private readonly byKey = new Map<SymbolKey, Entry>()
  private dirtyList: Entry[] = []
  private lastMarket: Market | null = null
  private lastSymbols: Map<string, Entry> | undefined = undefined
  private readonly mirror = new FigureMirror()

  constructor(private readonly clock: Clock) {}

  /** Merges an update, marks the changed fields dirty and returns the merged quote. */
  apply(update: QuoteUpdate): Quote {
    return this.applyEntry(update).quote
  }

  /** apply(), returning the symbol's entry: its slot saves the tick's other look-ups. */
  applyEntry(update: QuoteUpdate): QuoteEntry {
    const now = update.receivedAt ?? this.clock.now()
    // Pushes arrive in runs of one market: reuse its symbol map instead of looking it up again.
    let symbols = update.market === this.lastMarket ? this.lastSymbols : undefined
    if (symbols === undefined) {
      symbols = this.byMarket.get(update.market)
      if (symbols === undefined) {
        symbols = new Map()
        this.byMarket.set(update.market, symbols)
      }
      this.lastMarket = update.market
      this.lastSymbols = symbols
    }
    // A pushed symbol's handle names the entry its last tick went to: no look-up while it holds.
    const ref = update.ref
    let entry = ref?.entry as Entry | null | undefined
    if (
      entry == null ||
      entry.owner !== this ||
      !entry.live ||
      entry.quote.symbol !== update.symbol ||
      entry.quote.market !== update.market
    ) {
      entry = symbols.get(update.symbol)
      if (entry === undefined) {
        entry = this.insert(blankQuote(update.market, update.symbol, now, 'poll'))
        symbols.set(update.symbol, entry)
      }
      if (ref !== undefined) ref.entry = entry
    }
    const q = entry.quote
    // Compared with the mirror, not the quote (figure-mirror.ts), and written to both.
    const m = this.mirror.figs
    const at = entry.at
    // A scanned tick's figures merge as they were read (packed-figures.ts): no fields object.
    const packed = update.packed
    let mask: number
    let present: number
    if (packed !== undefined) {
      present = packed.mask
      mask = mergePacked(q, present, packed.values, m, at)
    } else {
      const fields = update.fields
      mask = mergeFields(q, fields, m, at)
      present =
        (fields.change !== undefined ? B_CHANGE : 0) |
        (fields.changePercent !== undefined ? B_CHANGE_PCT : 0) |
        (fields.prevClose !== undefined ? B_PREV_CLOSE : 0)
    }
    if ((present & B_PREV_CLOSE) === 0 && (present & (B_CHANGE | B_CHANGE_PCT)) !== 0)
      mask |= followDay(q, (present & B_CHANGE) !== 0, m, at)
    if ((mask & PRICE_BITS) !== 0)
      mask |= deriveChange(q, (present & B_CHANGE) !== 0, (present & B_CHANGE_PCT) !== 0, m, at)
    const ts = update.ts ?? now
    if (m[at + AT_TS] !== ts) {
      q.ts = ts
      m[at + AT_TS] = ts
      mask |= BIT_TS
    }
    if (m[at + AT_RECEIVED] !== now) {
      q.receivedAt = now
      m[at + AT_RECEIVED] = now
      mask |= BIT_RECEIVED
    }
    if (q.source !== update.source) {
      q.source = update.source
      mask |= BIT_SOURCE
    }
    if (q.stale) {
      q.stale = false
      mask |= BIT_STALE
    }
    this.markDirty(entry, mask)
    return entry
  }

  /** Restores quotes from the on-disk cache; live data already in the store wins. */
  seed(quotes: Quote[]): void {
    for (const cached of quotes) {
      if (this.byKey.has(cached.key)) continue
      const quote: Quote = { ...cached, source: 'cache', stale: true }
      let symbols = this.byMarket.get(quote.market)
      if (symbols === undefined) {
        symbols = new Map()
        this.byMarket.set(quote.market, symbols)
      }
      symbols.set(quote.symbol, this.insert(quote))
    }
  }

  /** The feed is offline (or these symbols lost their source): their values are no longer live. */
  markStale(keys: Iterable<SymbolKey> | 'all'): void {
    const entries = keys === 'all' ? this.byKey.values() : keys
    for (const item of entries) {
      const entry = typeof item === 'string' ? this.byKey.get(item) : item
      if (entry === undefined || entry.quote.stale) continue
      entry.quote.stale = true
      this.markDirty(entry, BIT_STALE)
    }
  }

  get(key: SymbolKey): Quote | undefined {
    return this.byKey.get(key)?.quote
  }

  /** Every quote, the store's own objects: read them, do not keep or mutate them. */
  live(): IterableIterator<Readonly<Quote>> {
    return this.liveQuotes()
  }

  private *liveQuotes(): IterableIterator<Quote> {
    for (const entry of this.byKey.values()) yield entry.quote
  }

  /** Copies of every quote (for the disk cache and snapshots). */
  all(): Quote[] {
    const out: Quote[] = []
    for (const entry of this.byKey.values()) out.push({ ...entry.quote })
    return out
  }

  remove(key: SymbolKey): void {
    const entry = this.byKey.get(key)
    if (entry === undefined) return
    this.byKey.delete(key)
    this.byMarket.get(entry.quote.market)?.delete(entry.quote.symbol)
    entry.live = false
    this.mirror.release(entry.at)
    if (entry.dirty !== 0) {
      entry.dirty = 0
      this.dirtyList = this.dirtyList.filter((e) => e !== entry)
    }
  }

  /**
   * Changed fields since the last drain as one bridge frame, one entry per changed key; new keys
   * carry every field. A field back at the value last drained is left out, and a key with nothing
   * left is not sent.
   */
  drainFrame(): QuoteFrame {
    const keys: string[] = []
    const masks: number[] = []
    const values: Array<number | null> = []
    times.base = Math.floor(this.clock.now())
    times.at.length = 0
    times.absolute = !Number.isSafeInteger(times.base)
    for (const entry of this.dirtyList) {
      const mask = writeEntry(entry, values, this.mirror)
      entry.dirty = 0
      if (mask === 0) continue
      keys.push(entry.quote.key)
      masks.push(mask)
    }
    this.dirtyList = []
    if (!times.absolute) return { keys, masks, values, base: times.base }
    // A time that is not a whole ms: the frame carries absolute times (base 0) instead.
    for (const i of times.at) values[i] = (values[i] as number) + times.base
    return { keys, masks, values, base: 0 }
  }

  /** drainFrame as patches (tests, tools). */
  drainPatches(): QuotePatch[] {
    return decodeQuoteFrame(this.drainFrame())
  }

  hasDirty(): boolean {
    return this.dirtyList.length > 0
  }

  private insert(quote: Quote): Entry {
    const entry: Entry = {
      quote,
      slot: newSymbolSlot(),
      owner: this,
      live: true,
      dirty: 0,
      at: this.mirror.take(quote),
    }
    this.byKey.set(quote.key, entry)
    this.markDirty(entry, FULL)
    return entry
  }

  private markDirty(entry: Entry, mask: number): void {
    if (mask === 0) return
    if (entry.dirty === 0) this.dirtyList.push(entry)
    entry.dirty |= mask
  }
}

/**
 * Pushes rarely carry prevClose, but their change implies one. When it disagrees with the held
 * previous close, the service's day has rolled over (or the held close is from an older day: the
 * cache, a poll before midnight), so the implied one is taken: otherwise every later tick without
 * a change would be derived from the old day's close, and change % would flip between the days.
 * Reads the quote's numbers from its mirror `m` at `at` (NaN is null) and writes both.
 */
function followDay(q: Quote, fromChange: boolean, m: Float64Array, at: number): number {
  const last = m[at + I_LAST] as number
  const prevClose = m[at + I_PREV_CLOSE] as number
  if (last !== last || prevClose !== prevClose) return 0
  const change = m[at + I_CHANGE] as number
  const pct = m[at + I_CHANGE_PCT] as number
  let implied: number | null = null
  if (fromChange && change === change) implied = last - change
  else if (pct === pct && pct !== -100) implied = last / (1 + pct / 100)
  if (implied === null || !Number.isFinite(implied)) return 0
  if (Math.abs(implied - prevClose) <= DAY_TOLERANCE * Math.abs(prevClose)) return 0
  // 12 significant digits drop the float noise of the subtraction (84386.49999999999).
  const close = Number(implied.toPrecision(12))
  q.prevClose = close
  m[at + I_PREV_CLOSE] = close
  return B_PREV_CLOSE
}

/**
 * The TickerQuote carries change and changePercent (spec: TickerQuote), but pushes are often
 * partial: a tick with only `last` would leave an old change beside a new price. So when last or
 * prevClose moved, the service's values are kept if this update carries them and recomputed
 * from prevClose otherwise; an update that moves neither (bid/ask only) leaves them alone.
 */
function deriveChange(
  q: Quote,
  hasChange: boolean,
  hasPct: boolean,
  m: Float64Array,
  at: number,
): number {
  const last = m[at + I_LAST] as number
  const prevClose = m[at + I_PREV_CLOSE] as number
  if (last !== last || prevClose !== prevClose) return 0
  let mask = 0
  if (!hasChange) {
    const change = last - prevClose
    if (m[at + I_CHANGE] !== change) {
      q.change = change
      m[at + I_CHANGE] = change
      mask |= B_CHANGE
    }
  }
  if (!hasPct && prevClose !== 0) {
    const pct = ((last - prevClose) / prevClose) * 100
    if (m[at + I_CHANGE_PCT] !== pct) {
      q.changePercent = pct
      m[at + I_CHANGE_PCT] = pct
      mask |= B_CHANGE_PCT
    }
  }
  return mask
}

/**
 * The frame's times as offsets from its base (shared/quote-frame): a whole-ms time goes as a
 * small integer and its index is kept, in case a later time is not whole and the frame must
 * fall back to absolute times. Module state: one drain runs at a time.
 */
const times = { base: 0, at: [] as number[], absolute: false }

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
 * the mirror, not the quote (figure-mirror.ts), but for source and stale.
 */
function writeEntry(entry: Entry, values: Array<number | null>, mirror: FigureMirror): number {
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
  return mask
}

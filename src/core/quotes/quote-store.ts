import type { Clock } from '../clock'
import type { QuoteUpdate } from './quote-fields'
import {
  B_ASK,
  B_BID,
  B_CHANGE,
  B_CHANGE_PCT,
  B_LAST,
  B_PREV_CLOSE,
  mergePacked,
} from './quote-merge'
import { deriveChange, followDay, midPrice, tradedLast } from './quote-derive'
import {
  BIT_RECEIVED,
  BIT_SOURCE,
  BIT_STALE,
  BIT_TS,
  FULL,
  times,
  writeEntry,
  type DrainedEntry,
} from './quote-drain'
import { AT_RECEIVED, AT_TS, FigureMirror } from '../push/figure-mirror'
import { newPackedFigures, packFields } from '../push/packed-figures'
import { blankQuote, QUOTE_FIGURES, type Quote, type QuotePatch } from '../../shared/quote'
import { decodeQuoteFrame, type QuoteFrame } from '../../shared/quote-frame'
import type { Market, SymbolKey } from '../../shared/markets/market'
import { newSymbolSlot, type QuoteEntry, type SymbolSlot } from './quote-entry'

/**
 * The latest known Quote per symbol, merged from partial updates of both transports.
 *
 * Per-symbol states:
 *   (absent) --apply--> fresh (source stream|poll)
 *   (absent) --seed---> cached (source 'cache', stale: a price from disk is never current)
 *   fresh|cached --markStale--> stale
 *   stale|cached --apply with a price--> fresh
 *
 * A quote's `ts` and `receivedAt` are the age of its price, not of its last frame: they move
 * when an update carries the price (its `last`, changed or the same, which confirms it), and
 * so do `source` and `stale`. A frame that moves only bid and ask, or the volume, leaves them
 * where they were, so every freshness guard reading them (the stale sweep, the silent-symbol
 * check, alerts, the row's age) reads how old the price is. A quote the service sends without a
 * last (bid and ask only) is priced by its bid and ask: its `last` is their mid, and `lastIsMid`
 * tells every view and alert so (midPrice below).
 *
 * Hot path (>= 100k updates/s): apply() mutates the stored Quote in place, looks it up through a
 * two-level map (market -> symbol) so no key string is built per update (the quote's `key` is
 * built once, so consumers use it instead of building their own), and records what changed
 * as a bit mask in the bridge frame's own field order (shared/quote-frame), so drainFrame() writes
 * the "changed fields only" frame straight from the quotes (quote-drain.ts): no patch object per
 * symbol per flush. Objects returned by apply() and get() are the store's own: read them, do not
 * keep or mutate them.
 */

/** change/changePercent are derived only when one of these moved in the update. */
const PRICE_BITS = B_LAST | B_PREV_CLOSE
const I_LAST = QUOTE_FIGURES.indexOf('last')
/** apply's packing space for a fields update: one update is merged at a time. */
const scratch = newPackedFigures().values

export type { QuoteEntry }

interface Entry extends QuoteEntry, DrainedEntry {
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
    const entry = this.entryFor(update, now)
    const q = entry.quote
    // Compared with the mirror, not the quote (figure-mirror.ts), and written to both.
    const m = this.mirror.figs
    const at = entry.at
    // A traded last: a mid (lastIsMid) is the service's bid and ask, not a last it sent.
    const hadLast = q.lastIsMid !== true && m[at + I_LAST] === m[at + I_LAST]
    // A scanned tick's figures merge as they were read (packed-figures.ts): no fields object.
    const packed = update.packed
    const present = packed !== undefined ? packed.mask : packFields(update.fields, scratch)
    let mask = mergePacked(q, present, packed !== undefined ? packed.values : scratch, m, at)
    // The price is set here: a traded last when the update has one, else (none ever sent) the
    // mid of bid and ask. Two tests on the common path: a tick that carries a last.
    const traded = (present & B_LAST) !== 0
    const midPriced = !traded && !hadLast && (present & (B_BID | B_ASK)) !== 0
    if (traded) {
      if (q.lastIsMid === true) mask |= tradedLast(q)
    } else if (midPriced) mask |= midPrice(q, m, at)
    if ((present & B_PREV_CLOSE) === 0 && (present & (B_CHANGE | B_CHANGE_PCT)) !== 0)
      mask |= followDay(q, (present & B_CHANGE) !== 0, m, at)
    if ((mask & PRICE_BITS) !== 0)
      mask |= deriveChange(q, (present & B_CHANGE) !== 0, (present & B_CHANGE_PCT) !== 0, m, at)
    if (traded || midPriced) mask |= this.priceSeen(entry, update, now)
    this.markDirty(entry, mask)
    return entry
  }

  /**
   * The update carried the price: its time is the price's time, its source the price's source,
   * and the price is no longer stale. A push that moved `last` is noted on the slot (the frozen
   * price check of core/trust reads when the stream last moved it).
   */
  private priceSeen(entry: Entry, update: QuoteUpdate, now: number): number {
    const q = entry.quote
    const m = this.mirror.figs
    const at = entry.at
    let mask = 0
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
    if (update.source === 'stream') streamSeen(entry.slot, q.last, now)
    return mask
  }

  private entryFor(update: QuoteUpdate, now: number): Entry {
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
    return entry
  }

  /** Restores quotes from the on-disk cache; live data already in the store wins. */
  seed(quotes: Quote[]): void {
    for (const cached of quotes) {
      if (this.byKey.has(cached.key)) continue
      const quote: Quote = {
        ...cached,
        source: 'cache',
        stale: true,
        lastIsMid: cached.lastIsMid === true,
      }
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

  /** The symbol's entry (its quote and slot), or undefined. */
  entry(key: SymbolKey): QuoteEntry | undefined {
    return this.byKey.get(key)
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
 * The frozen-price clock (core/trust reads slot.streamMovedAt): it restarts when the stream's own
 * last moves, so a poll between two pushes is no move (a frozen stream beside moving polls still
 * reads frozen), and after a gap of STREAM_GAP_MS in pushes (a stall or a reconnect is silence,
 * which the silent-symbol check judges; a price that stood still across it is not frozen).
 */
export const STREAM_GAP_MS = 30_000

function streamSeen(slot: SymbolSlot, last: number | null, now: number): void {
  if (last !== slot.streamLast || now - slot.streamSeenAt >= STREAM_GAP_MS) slot.streamMovedAt = now
  slot.streamLast = last
  slot.streamSeenAt = now
}

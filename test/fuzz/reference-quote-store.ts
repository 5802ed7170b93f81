import type { Clock } from '../../src/core/clock'
import { QUOTE_FIGURES } from '../../src/shared/quote'
import type { QuoteUpdate } from '../../src/core/quotes/quote-fields'
import type { SymbolKey } from '../../src/shared/markets/market'
import { blankQuote, type Quote } from '../../src/shared/quote'
import { FRAME_FIELDS, QUOTE_SOURCES, type QuoteFrame } from '../../src/shared/quote-frame'
import { midOf } from '../../src/shared/spread'

/**
 * QuoteStore's merge and drain as they were before its figure mirror and packed merges (the
 * store at 67aefd5), written plainly, by name from the quote itself: the oracle for
 * test/fuzz/quote-store.spec.ts. No handles, no slots: only what a quote and a frame show. Its
 * times, source and stale flag follow the price, as the store's do: they move only with an
 * update that carries `last` (or, for a quote without a last, a bid or an ask). A quote without
 * a last is priced by the mid of bid and ask, and says so (lastIsMid).
 */
type Figures = Record<string, number | null>
interface Entry {
  quote: Quote
  dirty: number
  sent: Array<number | null>
}

const bitOf = (name: string): number => 1 << FRAME_FIELDS.indexOf(name as never)
const FULL = -1
const ALL_BITS = (1 << FRAME_FIELDS.length) - 1
const PRICE_BITS = bitOf('last') | bitOf('prevClose')

export class ReferenceQuoteStore {
  private readonly entries = new Map<SymbolKey, Entry>()
  private dirtyList: Entry[] = []

  constructor(private readonly clock: Clock) {}

  apply(u: QuoteUpdate): void {
    const now = u.receivedAt ?? this.clock.now()
    const key = `${u.market}:${u.symbol}` as SymbolKey
    const entry = this.entries.get(key) ?? this.insert(blankQuote(u.market, u.symbol, now, 'poll'))
    const q = entry.quote
    const figs = q as unknown as Figures
    const f = u.fields as Record<string, number | undefined>
    const traded = q.last !== null && q.lastIsMid !== true
    const sides = f.bid !== undefined || f.ask !== undefined
    const priced = f.last !== undefined || (!traded && sides)
    let mask = 0
    QUOTE_FIGURES.forEach((name, i) => {
      const v = f[name]
      if (v !== undefined && v !== figs[name]) {
        figs[name] = v
        mask |= 1 << i
      }
    })
    if (f.last !== undefined && q.lastIsMid === true) {
      q.lastIsMid = false
      mask |= bitOf('lastIsMid')
    } else if (f.last === undefined && !traded && sides) mask |= priceByMid(q)
    if (f.prevClose === undefined && (f.change !== undefined || f.changePercent !== undefined))
      mask |= followDay(q, f.change !== undefined)
    if ((mask & PRICE_BITS) !== 0)
      mask |= deriveChange(q, f.change !== undefined, f.changePercent !== undefined)
    if (priced) mask |= this.priced(q, u, now)
    this.markDirty(entry, mask)
  }

  private priced(q: Quote, u: QuoteUpdate, now: number): number {
    let mask = 0
    const ts = u.ts ?? now
    if (q.ts !== ts) {
      q.ts = ts
      mask |= bitOf('ts')
    }
    if (q.receivedAt !== now) {
      q.receivedAt = now
      mask |= bitOf('receivedAt')
    }
    if (q.source !== u.source) {
      q.source = u.source
      mask |= bitOf('source')
    }
    if (q.stale) {
      q.stale = false
      mask |= bitOf('stale')
    }
    return mask
  }

  seed(quotes: Quote[]): void {
    for (const cached of quotes)
      if (!this.entries.has(cached.key))
        this.insert({
          ...cached,
          source: 'cache',
          stale: true,
          lastIsMid: cached.lastIsMid === true,
        })
  }

  markStale(keys: SymbolKey[] | 'all'): void {
    for (const key of keys === 'all' ? [...this.entries.keys()] : keys) {
      const entry = this.entries.get(key)
      if (entry === undefined || entry.quote.stale) continue
      entry.quote.stale = true
      this.markDirty(entry, bitOf('stale'))
    }
  }

  remove(key: SymbolKey): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.dirtyList = this.dirtyList.filter((e) => e !== entry)
  }

  all(): Quote[] {
    return [...this.entries.values()].map((e) => ({ ...e.quote }))
  }

  drainFrame(): QuoteFrame {
    const keys: string[] = []
    const masks: number[] = []
    const values: Array<number | null> = []
    const base = Math.floor(this.clock.now())
    const times: number[] = []
    let absolute = !Number.isSafeInteger(base)
    const pushTime = (t: number): void => {
      if (Number.isSafeInteger(t) && Number.isSafeInteger(t - base)) {
        times.push(values.length)
        values.push(t - base)
      } else {
        absolute = true
        values.push(t)
      }
    }
    for (const entry of this.dirtyList) {
      const q = entry.quote
      const figs = q as unknown as Figures
      const full = entry.dirty === FULL
      let mask = full ? ALL_BITS : entry.dirty
      QUOTE_FIGURES.forEach((name, i) => {
        if ((mask & (1 << i)) === 0) return
        const v = figs[name] as number | null
        if (!full && entry.sent[i] === v) {
          mask &= ~(1 << i)
          return
        }
        entry.sent[i] = v
        values.push(v)
      })
      if ((mask & bitOf('ts')) !== 0) pushTime(q.ts)
      if ((mask & bitOf('receivedAt')) !== 0) pushTime(q.receivedAt)
      if ((mask & bitOf('source')) !== 0) values.push(QUOTE_SOURCES.indexOf(q.source))
      if ((mask & bitOf('stale')) !== 0) values.push(q.stale ? 1 : 0)
      if ((mask & bitOf('lastIsMid')) !== 0) values.push(q.lastIsMid === true ? 1 : 0)
      entry.dirty = 0
      if (mask === 0) continue
      keys.push(q.key)
      masks.push(mask)
    }
    this.dirtyList = []
    if (!absolute) return { keys, masks, values, base }
    for (const i of times) values[i] = (values[i] as number) + base
    return { keys, masks, values, base: 0 }
  }

  private insert(quote: Quote): Entry {
    const entry: Entry = { quote, dirty: 0, sent: QUOTE_FIGURES.map(() => null) }
    this.entries.set(quote.key, entry)
    this.markDirty(entry, FULL)
    return entry
  }

  private markDirty(entry: Entry, mask: number): void {
    if (mask === 0) return
    if (entry.dirty === 0) this.dirtyList.push(entry)
    entry.dirty |= mask
  }
}

function followDay(q: Quote, fromChange: boolean): number {
  if (q.last === null || q.prevClose === null) return 0
  let implied: number | null = null
  if (fromChange && q.change !== null) implied = q.last - q.change
  else if (q.changePercent !== null && q.changePercent !== -100)
    implied = q.last / (1 + q.changePercent / 100)
  if (implied === null || !Number.isFinite(implied)) return 0
  if (Math.abs(implied - q.prevClose) <= 1e-4 * Math.abs(q.prevClose)) return 0
  q.prevClose = Number(implied.toPrecision(12))
  return bitOf('prevClose')
}

function deriveChange(q: Quote, hasChange: boolean, hasPct: boolean): number {
  if (q.last === null || q.prevClose === null) return 0
  let mask = 0
  if (!hasChange) {
    const change = q.last - q.prevClose
    if (q.change !== change) {
      q.change = change
      mask |= bitOf('change')
    }
  }
  if (!hasPct && q.prevClose !== 0) {
    const pct = ((q.last - q.prevClose) / q.prevClose) * 100
    if (q.changePercent !== pct) {
      q.changePercent = pct
      mask |= bitOf('changePercent')
    }
  }
  return mask
}

/** The mid of bid and ask as the quote's last, once both are above 0; the bits it changed. */
function priceByMid(q: Quote): number {
  if (q.bid === null || q.ask === null || q.bid <= 0 || q.ask <= 0) return 0
  const mid = midOf(q.bid, q.ask)
  let mask = 0
  if (q.last !== mid) {
    q.last = mid
    mask |= bitOf('last')
  }
  if (q.lastIsMid !== true) {
    q.lastIsMid = true
    mask |= bitOf('lastIsMid')
  }
  return mask
}

import { z } from 'zod'
import { bucketEnd, bucketStart, intervalMs } from '../../shared/intervals'
import { INTERVALS, IntervalSchema, type Bar, type Interval } from '../../shared/quote'
import type { SymbolKey } from '../../shared/markets/market'

/**
 * Bars for the mini charts. Markets without a kline endpoint (the spec details only
 * GET /api/v1/market/tv-futures/kline) get 1m bars built locally from ticks; 5m…1mo are
 * aggregated from them on read. Bars from a kline call or a pushed candle are merged in at their
 * own interval and win over locally built ones, except that local ticks extend the newest one.
 *
 * Storage is columnar (uPlot's lesson): one ring of Float64Arrays per (symbol, interval), bounded
 * by `capacity` bars; it starts with room for 64 and doubles as bars arrive, so add() allocates
 * only at those few doublings.
 * Buckets and closes follow the one bar rule of shared/intervals (UTC buckets; a bar closes at its
 * last millisecond), the same rule REST bars and pushed candles follow.
 */

const MINUTE = 60_000

/** The interval whose length best matches a bar's span (for merge() without an interval). */
export function guessInterval(bar: Bar): Interval {
  const span = bar.closeTime - bar.openTime
  let best: Interval = '1m'
  let bestDiff = Infinity
  for (const interval of INTERVALS) {
    const diff = Math.abs(intervalMs(interval) - span)
    if (diff < bestDiff) [best, bestDiff] = [interval, diff]
  }
  return best
}

/** The disk-cache form: columns per (symbol, interval). */
export const CandleSeriesSchema = z.object({
  key: z.string(),
  interval: IntervalSchema,
  t: z.array(z.number()),
  o: z.array(z.number()),
  h: z.array(z.number()),
  l: z.array(z.number()),
  c: z.array(z.number()),
  v: z.array(z.number()),
})
export type CandleSeries = z.infer<typeof CandleSeriesSchema>

/** Bars a ring holds room for at first; it doubles as bars arrive, up to its capacity. */
const FIRST_ROOM = 64

export class BarRing {
  t: Float64Array
  o: Float64Array
  h: Float64Array
  l: Float64Array
  c: Float64Array
  v: Float64Array
  head = 0
  count = 0
  /** Slots allocated now (<= capacity). */
  private room: number

  constructor(readonly capacity: number) {
    this.room = Math.max(1, Math.min(capacity, FIRST_ROOM))
    this.t = new Float64Array(this.room)
    this.o = new Float64Array(this.room)
    this.h = new Float64Array(this.room)
    this.l = new Float64Array(this.room)
    this.c = new Float64Array(this.room)
    this.v = new Float64Array(this.room)
  }

  /** Physical slot of the i-th oldest bar. */
  slot(i: number): number {
    // A wrap only past the end: no division on the common path (every tick's bar, bench/ingest).
    const k = this.head + i
    return k < this.room ? k : k % this.room
  }

  push(t: number, o: number, h: number, l: number, c: number, v: number): void {
    if (this.count === this.room) {
      if (this.room < this.capacity) this.grow()
      else {
        this.head = (this.head + 1) % this.room
        this.count--
      }
    }
    const j = this.slot(this.count++)
    this.t[j] = t
    this.o[j] = o
    this.h[j] = h
    this.l[j] = l
    this.c[j] = c
    this.v[j] = v
  }

  /**
   * Twice the room, oldest bar first. Allocating every ring at full capacity up front held
   * 1000 bars x 6 columns x 8 bytes = 48 KB per symbol from its first tick: 234 MB at 5000
   * symbols (bench/scale.ts), most of it zeros for hours.
   */
  private grow(): void {
    const room = Math.min(this.capacity, this.room * 2)
    const copy = (from: Float64Array): Float64Array => {
      const to = new Float64Array(room)
      for (let i = 0; i < this.count; i++) to[i] = from[this.slot(i)] as number
      return to
    }
    this.t = copy(this.t)
    this.o = copy(this.o)
    this.h = copy(this.h)
    this.l = copy(this.l)
    this.c = copy(this.c)
    this.v = copy(this.v)
    this.head = 0
    this.room = room
  }

  /** Logical index of the bar opening at t, or -1. */
  find(t: number): number {
    let lo = 0
    let hi = this.count - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const at = this.t[this.slot(mid)] as number
      if (at === t) return mid
      if (at < t) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }

  /** The bar at logical index i; openTime: the bucket it opens when aggregated to a longer interval. */
  bar(i: number, interval: Interval, openTime = this.t[this.slot(i)] as number): Bar {
    const j = this.slot(i)
    return {
      openTime,
      closeTime: bucketEnd(interval, openTime),
      open: this.o[j] as number,
      high: this.h[j] as number,
      low: this.l[j] as number,
      close: this.c[j] as number,
      volume: this.v[j] as number,
    }
  }

  toBars(interval: Interval): Bar[] {
    const out: Bar[] = []
    for (let i = 0; i < this.count; i++) out.push(this.bar(i, interval))
    return out
  }

  replaceAll(bars: Bar[]): void {
    this.head = 0
    this.count = 0
    for (const b of bars.slice(-this.capacity)) {
      this.push(b.openTime, b.open, b.high, b.low, b.close, b.volume)
    }
  }
}

/** Bars `from` (oldest 0) up to `to` of a ring as plain columns: the export and save form. */
export function ringSeries(
  key: string,
  interval: Interval,
  ring: BarRing,
  from: number,
  to: number,
): CandleSeries {
  const s: CandleSeries = { key, interval, t: [], o: [], h: [], l: [], c: [], v: [] }
  for (let i = Math.max(0, from); i < to; i++) {
    const j = ring.slot(i)
    s.t.push(ring.t[j] as number)
    s.o.push(ring.o[j] as number)
    s.h.push(ring.h[j] as number)
    s.l.push(ring.l[j] as number)
    s.c.push(ring.c[j] as number)
    s.v.push(ring.v[j] as number)
  }
  return s
}

export class CandleBuilder {
  private readonly series = new Map<SymbolKey, Map<Interval, BarRing>>()
  /** The '1m' rings of `series` again, keyed by symbol alone: add()'s one look-up per tick. */
  private readonly minuteRings = new Map<SymbolKey, BarRing>()
  private readonly capacity: number
  private dropped = 0

  constructor(opts: { capacity?: number } = {}) {
    this.capacity = opts.capacity ?? 1000
  }

  /**
   * One tick into the symbol's 1m bars. `volume` is this trade's quantity (not a cumulative day
   * volume). A late tick updates the bar it belongs to if still held, else it is dropped.
   */
  add(key: SymbolKey, ts: number, price: number, volume = 0): void {
    this.addTo(this.minuteRing(key), ts, price, volume)
  }

  /**
   * Bumped whenever a held ring is dropped (remove): a ring kept from minuteRing() is the
   * symbol's own only while the epoch it was taken in is current (core/quotes/quote-entry.ts).
   */
  get epoch(): number {
    return this.dropped
  }

  /** The symbol's 1m ring, made if missing: for addTo() without a look-up per tick. */
  minuteRing(key: SymbolKey): BarRing {
    // One look-up in the flat 1m index instead of two through `series` (bench/ingest).
    return this.minuteRings.get(key) ?? this.ring(key, '1m')
  }

  /** add() into a ring from minuteRing() of the current epoch. */
  addTo(ring: BarRing, ts: number, price: number, volume = 0): void {
    if (!Number.isFinite(price) || !Number.isFinite(ts)) return
    const t = Math.floor(ts / MINUTE) * MINUTE // bucketStart('1m', ts)
    const newest = ring.count > 0 ? ring.slot(ring.count - 1) : -1
    const lastT = newest >= 0 ? (ring.t[newest] as number) : -Infinity
    if (t > lastT) {
      ring.push(t, price, price, price, price, volume)
      return
    }
    const i = t === lastT ? ring.count - 1 : ring.find(t)
    if (i < 0) return
    const j = t === lastT ? newest : ring.slot(i)
    if (price > (ring.h[j] as number)) ring.h[j] = price
    if (price < (ring.l[j] as number)) ring.l[j] = price
    ring.v[j] = (ring.v[j] as number) + volume
    if (i === ring.count - 1) ring.c[j] = price
  }

  /** Bars from a kline response or a pushed candle; they replace held bars with the same openTime. */
  merge(key: SymbolKey, bars: Bar[], interval?: Interval): void {
    const first = bars[0]
    if (first === undefined) return
    const iv = interval ?? guessInterval(first)
    const ring = this.ring(key, iv)
    const byTime = new Map<number, Bar>()
    for (const b of ring.toBars(iv)) byTime.set(b.openTime, b)
    for (const b of bars) byTime.set(bucketStart(iv, b.openTime), { ...b })
    ring.replaceAll([...byTime.values()].sort((a, b) => a.openTime - b.openTime))
  }

  /** The newest `limit` bars at `interval`, oldest first. */
  bars(key: SymbolKey, interval: Interval, limit: number): Bar[] {
    const rings = this.series.get(key)
    if (rings === undefined || limit <= 0) return []
    const base = rings.get('1m')
    const local = base ? aggregate(base, interval) : []
    const native = interval === '1m' ? [] : (rings.get(interval)?.toBars(interval) ?? [])
    return combine(native, local).slice(-limit)
  }

  /** The symbols that hold bars of any interval. */
  keys(): IterableIterator<SymbolKey> {
    return this.series.keys()
  }

  remove(key: SymbolKey): void {
    this.series.delete(key)
    if (this.minuteRings.delete(key)) this.dropped++
  }

  export(): CandleSeries[] {
    const out: CandleSeries[] = []
    for (const [key, rings] of this.series) {
      for (const [interval, ring] of rings) {
        if (ring.count > 0) out.push(ringSeries(key, interval, ring, 0, ring.count))
      }
    }
    return out
  }

  /** Restores series from the disk cache; columns of unequal length are cut to the shortest. */
  import(series: CandleSeries[]): void {
    for (const s of series) {
      const n = Math.min(s.t.length, s.o.length, s.h.length, s.l.length, s.c.length, s.v.length)
      const bars: Bar[] = []
      for (let i = 0; i < n; i++) {
        const openTime = s.t[i] as number
        bars.push({
          openTime,
          closeTime: bucketEnd(s.interval, openTime),
          open: s.o[i] as number,
          high: s.h[i] as number,
          low: s.l[i] as number,
          close: s.c[i] as number,
          volume: s.v[i] as number,
        })
      }
      this.merge(s.key, bars, s.interval)
    }
  }

  /** Every held ring with its symbol and interval, for the disk cache (persistence/bar-store.ts). */
  *rings(): Generator<[SymbolKey, Interval, BarRing]> {
    for (const [key, rings] of this.series)
      for (const [interval, ring] of rings) if (ring.count > 0) yield [key, interval, ring]
  }

  /** The ring of a symbol at an interval, made if missing (built-bars.ts folds into it). */
  ring(key: SymbolKey, interval: Interval): BarRing {
    let rings = this.series.get(key)
    if (rings === undefined) {
      rings = new Map()
      this.series.set(key, rings)
    }
    let ring = rings.get(interval)
    if (ring === undefined) {
      ring = new BarRing(this.capacity)
      rings.set(interval, ring)
      if (interval === '1m') this.minuteRings.set(key, ring)
    }
    return ring
  }
}

function aggregate(ring: BarRing, interval: Interval): Bar[] {
  if (interval === '1m') return ring.toBars('1m')
  const out: Bar[] = []
  let cur: Bar | null = null
  for (let i = 0; i < ring.count; i++) {
    const j = ring.slot(i)
    const openTime = bucketStart(interval, ring.t[j] as number)
    if (cur === null || cur.openTime !== openTime) {
      cur = ring.bar(i, interval, openTime)
      out.push(cur)
    } else {
      cur.high = Math.max(cur.high, ring.h[j] as number)
      cur.low = Math.min(cur.low, ring.l[j] as number)
      cur.close = ring.c[j] as number
      cur.volume += ring.v[j] as number
    }
  }
  return out
}

/**
 * Native bars (from the service) are complete and win; locally built bars only add what came
 * after them. The newest native bar is still forming, so local ticks in it extend its range.
 */
function combine(native: Bar[], local: Bar[]): Bar[] {
  const last = native.at(-1)
  if (last === undefined) return local
  const out = native.slice()
  const tail = { ...last }
  out[out.length - 1] = tail
  for (const b of local) {
    if (b.openTime > last.openTime) out.push(b)
    else if (b.openTime === last.openTime) {
      tail.high = Math.max(tail.high, b.high)
      tail.low = Math.min(tail.low, b.low)
      tail.close = b.close
      tail.volume = Math.max(tail.volume, b.volume)
    }
  }
  return out
}

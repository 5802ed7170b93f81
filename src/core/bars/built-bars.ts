import { bucketStart } from '../../shared/intervals'
import { parseSymbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Interval } from '../../shared/quote'
import type { BarRing, CandleBuilder, CandleSeries } from './candle-builder'
import { klineRoute } from '../rest/market-routes'

/**
 * Bars the app builds from live prices, kept so that a chart of a market without a candle
 * endpoint (crypto: the interface has none) grows day by day instead of starting from nothing at
 * every start.
 *
 * The 1m bars built from ticks sit in a ring of 1000 (about 16 hours); what rolls out of it would
 * be gone, and a 1h or 1d chart could never show more than that. So before each save their 1h
 * and 1d aggregates are folded into the symbol's own 1h and 1d rings (1000 each: 41 days of
 * hours, 2.7 years of days), which the disk cache (persistence/bar-store.ts) keeps and the next
 * start reads back. Markets with a candle endpoint get their history from the service and are
 * left alone.
 *
 * Bound on disk: 1000 bars per symbol and interval (the rings), and DISK_BAR_CAP bars in all
 * (about 58 bytes a bar in the file: ~12 MB at the cap). Past the cap the finest bars give way
 * first, each symbol cut to an equal share of what is left, newest kept: minutes go before hours,
 * hours before days.
 */
export const KEPT_INTERVALS: readonly Interval[] = ['1h', '1d']
export const DISK_BAR_CAP = 200_000

/** The 1m ring's newest bar when a symbol was last folded: an unchanged symbol is skipped. */
export type FoldMarks = Map<SymbolKey, { t: number; c: number; v: number; count: number }>

/**
 * Folds the newest built 1m bars into the kept intervals of every market without klines, by the
 * rule of CandleBuilder.bars (held bars win; the newest held one is extended by the bars in it;
 * later buckets are added), but from the newest held bar's bucket on only, in place, and only
 * for symbols whose minutes moved since the last fold (`marks`): what a 5-minute save adds.
 * Rebuilding every symbol's 1000 minutes as bar objects and merging them was most of a save.
 */
export function foldBuiltBars(
  candles: Pick<CandleBuilder, 'keys' | 'ring' | 'minuteRing'>,
  marks: FoldMarks = new Map(),
  /** Only these (a chunk of a save); every symbol by default. */
  keys: Iterable<SymbolKey> = candles.keys(),
): void {
  for (const key of keys) {
    const ref = parseSymbolKey(key)
    if (ref === null || klineRoute(ref.market) !== null) continue
    const minutes = candles.minuteRing(key)
    if (minutes.count === 0) continue
    const j = minutes.slot(minutes.count - 1)
    const now = {
      t: minutes.t[j] as number,
      c: minutes.c[j] as number,
      v: minutes.v[j] as number,
      count: minutes.count,
    }
    const mark = marks.get(key)
    if (
      mark &&
      mark.t === now.t &&
      mark.c === now.c &&
      mark.v === now.v &&
      mark.count === now.count
    )
      continue
    marks.set(key, now)
    // Minutes into hours, then hours into days: a day's fold reads its 24 hours, not its minutes
    // (which the 1000-minute ring no longer holds from the day's start by evening anyway).
    let from = minutes
    for (const interval of KEPT_INTERVALS) {
      const kept = candles.ring(key, interval)
      foldTail(from, kept, interval)
      from = kept
    }
  }
}

function newestOpen(ring: BarRing): number {
  return ring.count > 0 ? (ring.t[ring.slot(ring.count - 1)] as number) : -Infinity
}

/** The finer bars from the kept ring's newest bucket on, aggregated into it (foldBuiltBars). */
function foldTail(minutes: BarRing, kept: BarRing, interval: Interval): void {
  const from = newestOpen(kept)
  let lo = 0
  let hi = minutes.count
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((minutes.t[minutes.slot(mid)] as number) < from) lo = mid + 1
    else hi = mid
  }
  const bar = { open: Number.NaN, o: 0, h: 0, l: 0, c: 0, v: 0 }
  const flush = (): void => {
    if (Number.isNaN(bar.open)) return
    if (bar.open > newestOpen(kept)) kept.push(bar.open, bar.o, bar.h, bar.l, bar.c, bar.v)
    else {
      const k = kept.slot(kept.count - 1)
      kept.h[k] = Math.max(kept.h[k] as number, bar.h)
      kept.l[k] = Math.min(kept.l[k] as number, bar.l)
      kept.c[k] = bar.c
      kept.v[k] = Math.max(kept.v[k] as number, bar.v)
    }
  }
  for (let i = lo; i < minutes.count; i++) {
    const m = minutes.slot(i)
    const open = bucketStart(interval, minutes.t[m] as number)
    if (open !== bar.open) {
      flush()
      bar.open = open
      bar.o = minutes.o[m] as number
      bar.h = minutes.h[m] as number
      bar.l = minutes.l[m] as number
      bar.v = 0
    } else {
      bar.h = Math.max(bar.h, minutes.h[m] as number)
      bar.l = Math.min(bar.l, minutes.l[m] as number)
    }
    bar.c = minutes.c[m] as number
    bar.v += minutes.v[m] as number
  }
  flush()
}

/** Coarsest last: the order in which series give way past the cap. */
const FINEST_FIRST: readonly Interval[] = ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1mo']

/**
 * How many of each series' newest bars the disk keeps: `cap` bars in all, the finest intervals
 * giving way first, each series of an interval cut to an equal share of what is left.
 */
export function diskShares(
  series: ReadonlyArray<{ interval: Interval; bars: number }>,
  cap = DISK_BAR_CAP,
): number[] {
  const keep = series.map((s) => s.bars)
  let total = keep.reduce((n, b) => n + b, 0)
  for (const interval of FINEST_FIRST) {
    if (total <= cap) break
    const idx = series.flatMap((s, i) => (s.interval === interval ? [i] : []))
    if (idx.length === 0) continue
    const here = idx.reduce((n, i) => n + (keep[i] as number), 0)
    const share = Math.floor(Math.max(0, cap - (total - here)) / idx.length)
    for (const i of idx) {
      const n = keep[i] as number
      if (n <= share) continue
      total -= n - share
      keep[i] = share
    }
  }
  return keep
}

/** The series cut to `cap` bars in all (diskShares), newest bars kept. */
export function boundForDisk(series: CandleSeries[], cap = DISK_BAR_CAP): CandleSeries[] {
  const keep = diskShares(
    series.map((s) => ({ interval: s.interval, bars: s.t.length })),
    cap,
  )
  if (keep.every((n, i) => n === series[i]?.t.length)) return series
  return series
    .map((s, i) => (keep[i] === s.t.length ? s : cut(s, keep[i] as number)))
    .filter((s) => s.t.length > 0)
}

function cut(s: CandleSeries, keep: number): CandleSeries {
  const from = s.t.length - keep
  const last = <T>(a: T[]): T[] => (keep === 0 ? [] : a.slice(from))
  return {
    ...s,
    t: last(s.t),
    o: last(s.o),
    h: last(s.h),
    l: last(s.l),
    c: last(s.c),
    v: last(s.v),
  }
}

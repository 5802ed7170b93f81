import { parseSymbolKey } from '../shared/market'
import type { Interval } from '../shared/quote'
import type { CandleBuilder, CandleSeries } from './candle-builder'
import { klineRoute } from './market-routes'

/**
 * Bars the app builds from live prices, kept so that a chart of a market without a candle
 * endpoint (crypto: the interface has none) grows day by day instead of starting from nothing at
 * every start.
 *
 * The 1m bars built from ticks sit in a ring of 1000 (about 16 hours); what rolls out of it would
 * be gone, and a 1h or 1d chart could never show more than that. So before each save their 1h
 * and 1d aggregates are folded into the symbol's own 1h and 1d rings (1000 each: 41 days of
 * hours, 2.7 years of days), which the disk cache keeps and the next start reads back. Markets
 * with a candle endpoint get their history from the service and are left alone.
 *
 * Bound on disk: 1000 bars per symbol and interval (the rings), and DISK_BAR_CAP bars in all
 * (about 58 bytes a bar in the file: ~12 MB at the cap). Past the cap the finest bars give way
 * first, each symbol cut to an equal share of what is left, newest kept: minutes go before hours,
 * hours before days.
 */
export const KEPT_INTERVALS: readonly Interval[] = ['1h', '1d']
export const DISK_BAR_CAP = 200_000

/** Folded per save: the 1m ring spans at most 1000 minutes, so 18 hours and 2 days cover it. */
const TAIL: Readonly<Partial<Record<Interval, number>>> = { '1h': 19, '1d': 3 }

/** Folds the newest built 1m bars into the kept intervals of every market without klines. */
export function keepBuiltBars(candles: Pick<CandleBuilder, 'keys' | 'bars' | 'merge'>): void {
  for (const key of candles.keys()) {
    const ref = parseSymbolKey(key)
    if (ref === null || klineRoute(ref.market) !== null) continue
    if (candles.bars(key, '1m', 1).length === 0) continue
    for (const interval of KEPT_INTERVALS) {
      // Held (native) bars win, the newest one extended by the ticks after it: CandleBuilder.bars.
      const tail = candles.bars(key, interval, TAIL[interval] ?? 1)
      if (tail.length > 0) candles.merge(key, tail, interval)
    }
  }
}

/** Coarsest last: the order in which series give way past the cap. */
const FINEST_FIRST: readonly Interval[] = ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1mo']

/** The series cut to `cap` bars in all, finest intervals first, newest bars kept. */
export function boundForDisk(series: CandleSeries[], cap = DISK_BAR_CAP): CandleSeries[] {
  let total = series.reduce((n, s) => n + s.t.length, 0)
  if (total <= cap) return series
  const out = series.slice()
  for (const interval of FINEST_FIRST) {
    if (total <= cap) break
    const idx = out.flatMap((s, i) => (s.interval === interval ? [i] : []))
    if (idx.length === 0) continue
    const here = idx.reduce((n, i) => n + (out[i] as CandleSeries).t.length, 0)
    const share = Math.floor(Math.max(0, cap - (total - here)) / idx.length)
    for (const i of idx) {
      const s = out[i] as CandleSeries
      if (s.t.length <= share) continue
      total -= s.t.length - share
      out[i] = cut(s, share)
    }
  }
  return out.filter((s) => s.t.length > 0)
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

/** What the bars cache file gets: the built bars folded in, then bounded. */
export function barsForDisk(candles: CandleBuilder): CandleSeries[] {
  keepBuiltBars(candles)
  return boundForDisk(candles.export())
}

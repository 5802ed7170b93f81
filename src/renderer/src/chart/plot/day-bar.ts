import { bucketEnd, bucketStart } from '../../../../shared/intervals'
import type { Bar, Interval } from '../../../../shared/quote'
import type { DayFigures } from './price-range'

/**
 * Today's daily bar from the quote: a market whose bars the app builds from live prices has a
 * daily bar that starts when the app first saw the symbol (its open the first price seen, its
 * range only what came since), while the quote carries the day's open, high and low. Where it
 * does, the day's bar is drawn from them at no cost: no call. Bars from a candle endpoint are the
 * service's own and are left alone (the caller asks only for built bars).
 */
export function quoteDayBar(day: DayFigures, last: number | null, ts: number): Bar | null {
  const { open, high, low } = day
  if (open === null || high === null || low === null || last === null || ts <= 0) return null
  if (!(low <= high) || !(open > 0)) return null
  const openTime = bucketStart('1d', ts)
  return {
    openTime,
    closeTime: bucketEnd('1d', openTime),
    open,
    high: Math.max(high, last, open),
    low: Math.min(low, last, open),
    close: last,
    volume: 0,
  }
}

/**
 * The bars with today's daily bar from the quote in place of the one built (or added when none
 * was built yet): on the '1d' interval only; the same array otherwise, or when the quote lacks
 * the day's figures. The built bar's volume is kept.
 */
export function withQuoteDayBar(
  bars: readonly Bar[],
  interval: Interval,
  day: DayFigures,
  last: number | null,
  ts: number,
): readonly Bar[] {
  if (interval !== '1d') return bars
  const q = quoteDayBar(day, last, ts)
  if (q === null) return bars
  const at = bars.findIndex((b) => b.openTime === q.openTime)
  if (at < 0)
    return bars.length > 0 && bars[bars.length - 1]!.openTime > q.openTime ? bars : [...bars, q]
  const built = bars[at]!
  return [...bars.slice(0, at), { ...q, volume: built.volume }, ...bars.slice(at + 1)]
}

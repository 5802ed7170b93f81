import { barOpenFor, bucketEnd, intervalMs } from '../../../../shared/intervals'
import type { Bar, Interval } from '../../../../shared/quote'

/**
 * Bars -> uPlot's columnar AlignedData: [time (s), open, high, low, close, volume]. uPlot wants
 * seconds on the x axis and one array per series (no per-point objects).
 */
export type BarColumns = [number[], number[], number[], number[], number[], number[]]

export function barsToColumns(bars: readonly Bar[]): BarColumns {
  const sorted = [...bars].sort((a, b) => a.openTime - b.openTime)
  const cols: BarColumns = [[], [], [], [], [], []]
  let lastTime = Number.NEGATIVE_INFINITY
  for (const bar of sorted) {
    const t = Math.floor(bar.openTime / 1000)
    // uPlot requires strictly increasing x; a duplicate bar is a later revision of the same one.
    if (t === lastTime) {
      cols[1][cols[1].length - 1] = bar.open
      cols[2][cols[2].length - 1] = bar.high
      cols[3][cols[3].length - 1] = bar.low
      cols[4][cols[4].length - 1] = bar.close
      cols[5][cols[5].length - 1] = bar.volume
      continue
    }
    lastTime = t
    cols[0].push(t)
    cols[1].push(bar.open)
    cols[2].push(bar.high)
    cols[3].push(bar.low)
    cols[4].push(bar.close)
    cols[5].push(bar.volume)
  }
  return cols
}

/** Seconds per bar for the chart's x axis (the nominal length; shared/intervals). */
export function barSeconds(interval: Interval): number {
  return intervalMs(interval) / 1000
}

/**
 * Folds a live last price into the bars: it moves the last bar's close/high/low while the tick is
 * inside it, and opens a new bar once the tick is past its close, in the phase of the service's
 * bars and closing by the one bar rule (shared/intervals). Returns a new array only when
 * something changed (null otherwise) so the chart redraws only then.
 */
export function applyLastPrice(
  bars: readonly Bar[],
  interval: Interval,
  price: number,
  ts: number,
): Bar[] | null {
  const last = bars[bars.length - 1]
  if (last === undefined || ts < last.openTime) return null
  if (ts <= last.closeTime) {
    if (last.close === price && last.high >= price && last.low <= price) return null
    const updated: Bar = {
      ...last,
      close: price,
      high: Math.max(last.high, price),
      low: Math.min(last.low, price),
    }
    return [...bars.slice(0, -1), updated]
  }
  const openTime = barOpenFor(interval, last.openTime, ts)
  const next: Bar = {
    openTime,
    closeTime: bucketEnd(interval, openTime),
    open: price,
    high: price,
    low: price,
    close: price,
    volume: 0,
  }
  return [...bars, next]
}

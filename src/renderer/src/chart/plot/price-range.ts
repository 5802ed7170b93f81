import uPlot from 'uplot'

/**
 * The price axis of a chart that holds fewer bars than it shows (a chart still building). Fitted
 * to its bars alone, one bar would fill the chart from top to bottom: a flat minute reads like a
 * crash. Instead the range takes in the day as the quote tells it (its high and low, and the
 * previous close), and a bar's own span never takes more than BARS_SHARE of the height.
 */
export const BARS_SHARE = 0.6
/** The least span of the axis, as a share of the price: a still price still gets an axis. */
export const MIN_SPAN = 0.002
/** Room above the highest and below the lowest price, as a share of the span. */
export const PAD = 0.08

/** What the quote says of the day; null where the service sends no such figure. */
export interface DayFigures {
  open: number | null
  high: number | null
  low: number | null
  prevClose: number | null
}

export function buildingRange(
  bars: { low: number; high: number },
  day: DayFigures,
): { min: number; max: number } {
  const known = [bars.low, bars.high, day.high, day.low, day.prevClose].filter(
    (v): v is number => v !== null && Number.isFinite(v) && v > 0,
  )
  let lo = Math.min(...known)
  let hi = Math.max(...known)
  const mid = (lo + hi) / 2
  const need = Math.max(hi - lo, (bars.high - bars.low) / BARS_SHARE, Math.abs(mid) * MIN_SPAN)
  const grow = (need - (hi - lo)) / 2
  lo -= grow
  hi += grow
  const pad = need * PAD
  return { min: Math.max(0, lo - pad), max: hi + pad }
}

/** The lowest low and highest high of columns of lows and highs (nulls skipped); null if none. */
export function barsSpan(
  lows: ArrayLike<number | null | undefined>,
  highs: ArrayLike<number | null | undefined>,
): { low: number; high: number } | null {
  let low = Number.POSITIVE_INFINITY
  let high = Number.NEGATIVE_INFINITY
  for (let i = 0; i < lows.length; i++) {
    const l = lows[i]
    const h = highs[i]
    if (l != null && l < low) low = l
    if (h != null && h > high) high = h
  }
  return low <= high ? { low, high } : null
}

/**
 * The x range of a chart of `bars` bars (their open times in seconds) that shows `window`: when
 * it holds fewer, the window ends at its last bar and its bars stand at their width on the right,
 * not stretched over the chart; null when it holds enough (the chart fits its bars).
 */
export function buildingWindow(
  times: ArrayLike<number | null | undefined>,
  barSeconds: number,
  window: number,
): { min: number; max: number } | null {
  const n = times.length
  const last = times[n - 1]
  if (n === 0 || n >= window || last == null) return null
  return { min: last - (window - 0.5) * barSeconds, max: last + 0.5 * barSeconds }
}

/**
 * The price scale's range for uPlot: a chart holding fewer than `window` bars takes in the day
 * (buildingRange); a full one is fitted to its bars as uPlot would (10 % padding, round ends).
 * Reads the plot's own columns (high: 2, low: 3), so it follows every setData.
 */
export function priceAxisRange(
  window: () => number,
  day: () => DayFigures | null,
): uPlot.Range.Function {
  return (u, min, max) => {
    const times = u.data[0]
    const span = barsSpan(u.data[3] ?? [], u.data[2] ?? [])
    const d = day()
    if (times.length >= window() || span === null || d === null)
      return uPlot.rangeNum(min, max, 0.1, true)
    const r = buildingRange(span, d)
    return [r.min, r.max]
  }
}

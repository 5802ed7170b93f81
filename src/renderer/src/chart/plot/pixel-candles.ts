/**
 * Candles grouped per pixel column for drawing. At 100k bars on a 1000 px chart, a bar is 0.01 px
 * wide: drawing each one costs 100k canvas calls for pixels nobody can tell apart. Bars that land
 * in the same pixel column merge into one OHLC bar (first open, highest high, lowest low, last
 * close, the column's tallest volume bar: the volume scale is fitted to single bars), which is
 * what that column would show anyway. Bars at least a
 * pixel apart never merge, so a zoomed-in chart still draws every bar.
 *
 * The output arrays are reused between draws (grown, never shrunk) so a redraw allocates nothing.
 */
export interface CandleSource {
  times: ArrayLike<number>
  opens: ArrayLike<number | null | undefined>
  highs: ArrayLike<number | null | undefined>
  lows: ArrayLike<number | null | undefined>
  closes: ArrayLike<number | null | undefined>
  volumes: ArrayLike<number | null | undefined>
}

export class PixelCandles {
  count = 0
  /** Pixel column (x position, rounded) of each group. */
  x: Float64Array<ArrayBuffer> = new Float64Array(0)
  open = new Float64Array(0)
  high = new Float64Array(0)
  low = new Float64Array(0)
  close = new Float64Array(0)
  volume = new Float64Array(0)

  ensure(capacity: number): void {
    if (this.x.length >= capacity) return
    const size = Math.max(capacity, this.x.length * 2, 64)
    const grow = (old: Float64Array): Float64Array<ArrayBuffer> => {
      const next = new Float64Array(size)
      next.set(old)
      return next
    }
    this.x = grow(this.x)
    this.open = grow(this.open)
    this.high = grow(this.high)
    this.low = grow(this.low)
    this.close = grow(this.close)
    this.volume = grow(this.volume)
  }
}

/**
 * A linear time axis in pixels: x = left + (time - min) * pxPerUnit. The chart's x scale is linear
 * (uPlot distr 1), so this equals valToPos without a call per bar (100k calls cost ~4 ms).
 */
export interface LinearAxis {
  left: number
  min: number
  pxPerUnit: number
}

/**
 * Groups bars first..last (inclusive indices) by the pixel column `axis` puts them in. Bars with a
 * missing price are skipped (a gap, as uPlot treats nulls).
 */
export function groupCandlesByPixel(
  src: CandleSource,
  first: number,
  last: number,
  axis: LinearAxis,
  out: PixelCandles,
): PixelCandles {
  const { left, min, pxPerUnit } = axis
  out.count = 0
  if (last < first) return out
  // Columns never outnumber bars (nor, zoomed out, the plot's pixel width).
  out.ensure(Math.min(last - first + 1, 4096))
  let n = -1
  let column = Number.NaN
  for (let i = first; i <= last; i++) {
    const o = src.opens[i]
    const h = src.highs[i]
    const l = src.lows[i]
    const c = src.closes[i]
    const t = src.times[i]
    if (o == null || h == null || l == null || c == null || t === undefined) continue
    const v = src.volumes[i] ?? 0
    const px = Math.round(left + (t - min) * pxPerUnit)
    if (px === column) {
      if (h > out.high[n]!) out.high[n] = h
      if (l < out.low[n]!) out.low[n] = l
      out.close[n] = c
      if (v > out.volume[n]!) out.volume[n] = v
      continue
    }
    n++
    if (n >= out.x.length) out.ensure(n + 1)
    column = px
    out.x[n] = px
    out.open[n] = o
    out.high[n] = h
    out.low[n] = l
    out.close[n] = c
    out.volume[n] = v
  }
  out.count = n + 1
  return out
}

/**
 * A candle body's width in pixels from the spacing between bars: 60 % of it, at least 1 px (one
 * pixel column) and at most 12 px (very few bars must not turn into blocks).
 */
export function candleBodyWidth(spacingPx: number): number {
  return Math.max(1, Math.min(12, spacingPx * 0.6))
}

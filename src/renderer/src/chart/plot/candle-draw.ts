import type uPlot from 'uplot'
import { PixelCandles, candleBodyWidth, groupCandlesByPixel } from './pixel-candles'

/**
 * The detail chart's candle and volume painter, a uPlot draw hook (shared by CandleChart.svelte
 * and bench/chart/chart-entry.ts so the bench measures what ships). Bars are grouped per pixel column
 * (pixel-candles.ts) and painted in three batches: one Path2D fill for up candles, one for down
 * candles, one for volume. A canvas call per bar is what made 100k bars take half a second.
 *
 * Series layout (AlignedData): [time, open, high, low, close, volume].
 */
export interface CandleColours {
  up: string
  down: string
  volume: string
}

/** Up and down colours from the theme (--up, --down on `el`), with the chart's volume tint. */
export function themeCandleColours(el: Element, volume: string): CandleColours {
  const style = getComputedStyle(el)
  return {
    up: style.getPropertyValue('--up').trim() || '#16803c',
    down: style.getPropertyValue('--down').trim() || '#c62828',
    volume,
  }
}

export function createCandlePainter(colours: () => CandleColours): (u: uPlot) => void {
  const columns = new PixelCandles()
  return (u) => {
    const [times, opens, highs, lows, closes, volumes] = u.data
    if (!times || !opens || !highs || !lows || !closes || !volumes) return
    const n = times.length
    if (n === 0) return
    // One bar either side of the visible window, so candles cut by the edge still show.
    const first = Math.max(0, (u.series[0]?.idxs?.[0] ?? 0) - 1)
    const last = Math.min(n - 1, (u.series[0]?.idxs?.[1] ?? n - 1) + 1)
    const toX = (t: number): number => u.valToPos(t, 'x', true)
    const spacing =
      last > first ? (toX(times[last] ?? 0) - toX(times[first] ?? 0)) / (last - first) : 8
    const source = { times, opens, highs, lows, closes, volumes }
    const xMin = u.scales.x?.min ?? times[0] ?? 0
    const xMax = u.scales.x?.max ?? times[n - 1] ?? 0
    const x0 = toX(xMin)
    const axis = {
      left: x0,
      min: xMin,
      pxPerUnit: xMax > xMin ? (toX(xMax) - x0) / (xMax - xMin) : 0,
    }
    const g = groupCandlesByPixel(source, first, last, axis, columns)
    const body = candleBodyWidth(spacing)
    const wick = Math.max(1, Math.round(devicePixelRatioOf()))
    const up = new Path2D()
    const down = new Path2D()
    const vol = new Path2D()
    const volBase = u.valToPos(0, 'vol', true)
    for (let i = 0; i < g.count; i++) {
      const x = g.x[i] ?? 0
      const o = g.open[i] ?? 0
      const c = g.close[i] ?? 0
      const path = c >= o ? up : down
      const yh = u.valToPos(g.high[i] ?? 0, 'y', true)
      const yl = u.valToPos(g.low[i] ?? 0, 'y', true)
      const yo = u.valToPos(o, 'y', true)
      const yc = u.valToPos(c, 'y', true)
      const left = Math.round(x - body / 2)
      path.rect(Math.round(x - wick / 2), yh, wick, Math.max(1, yl - yh))
      path.rect(left, Math.min(yo, yc), Math.round(body), Math.max(1, Math.abs(yc - yo)))
      const yv = u.valToPos(g.volume[i] ?? 0, 'vol', true)
      if (volBase - yv >= 0.5) vol.rect(left, yv, Math.round(body), volBase - yv)
    }
    const ctx = u.ctx
    const { left, top, width, height } = u.bbox
    ctx.save()
    ctx.beginPath()
    ctx.rect(left, top, width, height)
    ctx.clip()
    const colour = colours()
    ctx.fillStyle = colour.volume
    ctx.fill(vol)
    ctx.fillStyle = colour.up
    ctx.fill(up)
    ctx.fillStyle = colour.down
    ctx.fill(down)
    ctx.restore()
  }
}

function devicePixelRatioOf(): number {
  return typeof devicePixelRatio === 'number' ? devicePixelRatio : 1
}

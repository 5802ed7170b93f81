import type uPlot from 'uplot'
import { candleSeries } from '../chart/candle-series'
import { loneBarRange } from '../chart/interaction'

/**
 * A wall tile's uPlot options: the detail chart's candle series and painter (chart/candle-draw),
 * without axes, legend or cursor (a tile is read at a glance and opened for detail), and the
 * symbol's alert levels as dashed lines, a level off the bars' range pinned to the edge.
 */
export function miniPlotOptions(setup: {
  width: number
  height: number
  barSeconds: () => number
  candles: (u: uPlot) => void
  levels: () => readonly number[]
  lineColour: () => string
}): uPlot.Options {
  const alertLines = (u: uPlot): void => {
    const levels = setup.levels()
    if (levels.length === 0) return
    const ctx = u.ctx
    const { left, top, width, height } = u.bbox
    ctx.save()
    ctx.setLineDash([4, 3])
    ctx.strokeStyle = setup.lineColour()
    ctx.lineWidth = 1
    for (const level of levels) {
      const y =
        Math.round(Math.min(top + height - 1, Math.max(top + 1, u.valToPos(level, 'y', true)))) +
        0.5
      ctx.beginPath()
      ctx.moveTo(left, y)
      ctx.lineTo(left + width, y)
      ctx.stroke()
    }
    ctx.restore()
  }
  return {
    width: setup.width,
    height: setup.height,
    legend: { show: false },
    cursor: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    padding: [6, 6, 4, 6],
    scales: {
      x: { time: true, range: loneBarRange(setup.barSeconds) },
      vol: { range: (_u, _min, max) => [0, max * 4] },
      legend: { auto: false, range: () => [0, 1] },
    },
    axes: [{ show: false }, { show: false, scale: 'y' }],
    series: candleSeries((v) => (v == null ? '' : String(v))),
    hooks: { draw: [setup.candles, alertLines] },
  }
}

import type uPlot from 'uplot'
import { legendSeries } from '../chart/plot/legend-series'
import { loneBarRange } from '../chart/interaction'
import { strokeLevels } from '../chart/plot/level-lines'

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
  const alertLines = (u: uPlot): void =>
    strokeLevels(u, setup.levels(), { scale: 'y', colour: setup.lineColour(), dash: [4, 3] })
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
    series: legendSeries((v) => (v == null ? '' : String(v))),
    hooks: { draw: [setup.candles, alertLines] },
  }
}

import type uPlot from 'uplot'
import type { Drawing } from '../../../shared/drawings/drawing'
import { legendSeries } from '../chart/plot/legend-series'
import { windowRange } from '../chart/interaction'
import { strokeLevels, strokePrevClose } from '../chart/plot/level-lines'
import { priceAxisRange, type DayFigures } from '../chart/plot/price-range'
import { strokeDrawings } from '../chart/drawings/drawing-paint'

export interface MiniPlotSetup {
  width: number
  height: number
  barSeconds: () => number
  /** Bars a tile shows; with fewer it is building (chart/plot/price-range.ts). */
  window: () => number
  /** The day as the quote tells it: a building tile's price axis takes it in. */
  day: () => DayFigures | null
  candles: (u: uPlot) => void
  levels: () => readonly number[]
  drawings: () => readonly Drawing[]
  /** Resolved colours of the theme (a canvas cannot read light-dark() text). */
  colours: () => { line: string; muted: string }
  /** After each draw: the tile labels its price axis (the scale's ends) while it is building. */
  drawn: (u: uPlot) => void
}

/**
 * A wall tile's uPlot options: the detail chart's candle series and painter (chart/plot), without
 * axes, legend or cursor (a tile is read at a glance and opened for detail); the symbol's alert
 * levels as dashed lines (a level off the bars' range pinned to the edge), the previous close
 * dotted, and the drawings of the symbol's chart. A tile with fewer bars than it shows stands them
 * at their width at the right, on a price range that takes in the day (WallTile labels it).
 */
export function miniPlotOptions(setup: MiniPlotSetup): uPlot.Options {
  const overlays = (u: uPlot): void => {
    const { line, muted } = setup.colours()
    strokePrevClose(u, setup.day()?.prevClose ?? null, { colour: muted, text: '' })
    strokeLevels(u, setup.levels(), { scale: 'y', colour: line, dash: [4, 3] })
    strokeDrawings(u, setup.drawings())
  }
  return {
    width: setup.width,
    height: setup.height,
    legend: { show: false },
    cursor: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    padding: [6, 6, 4, 6],
    scales: {
      x: { time: true, range: windowRange(setup.barSeconds, setup.window) },
      y: { range: priceAxisRange(setup.window, setup.day) },
      vol: { range: (_u, _min, max) => [0, max * 4] },
      legend: { auto: false, range: () => [0, 1] },
    },
    axes: [{ show: false }, { show: false, scale: 'y' }],
    series: legendSeries((v) => (v == null ? '' : String(v))),
    hooks: { draw: [setup.candles, overlays, setup.drawn] },
  }
}

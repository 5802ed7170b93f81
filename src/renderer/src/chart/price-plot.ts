import type uPlot from 'uplot'
import { legendSeries } from './plot/legend-series'
import { windowRange } from './interaction'
import { priceAxisRange, type DayFigures } from './plot/price-range'

/** A fixed right padding on both plots (uPlot's own depends on the x labels), so they line up. */
export const PLOT_PADDING: uPlot.Padding = [null, 16, null, null]

export interface PricePlotSetup {
  width: number
  height: number
  /** Crosshair and zoom shared with the panes under the prices. */
  syncKey: string
  barSeconds: () => number
  /** Bars the plot shows when it has them all: fewer, and it is building (plot/price-range.ts). */
  window: () => number
  /** The day as the quote tells it: a building chart's price axis takes it in. */
  day: () => DayFigures | null
  format: (v: number | null | undefined) => string
  /** The percent axis: its text for a price and whether it shows at all. */
  percentText: (price: number) => string
  hasCompare: () => boolean
  /** The price axis' width as uPlot sized it (the RSI pane copies it). */
  onAxisWidths: (left: number, right: number) => void
  draw: Array<(u: uPlot) => void>
  setScale: Array<(u: uPlot, key: string) => void>
}

/**
 * The price plot's uPlot options: time on x (zoomed by dragging), the price scale with its axis
 * wide enough for the longest label, a volume scale a quarter of the height, and the percent axis
 * of the compare line on the right. Candles and volume are painted by the draw hook (candle-draw);
 * the O/H/L/C series stay for the legend under the crosshair (plot/legend-series). A chart still
 * building shows its window of bars on a price axis that takes in the day (plot/price-range).
 */
export function pricePlotOptions(setup: PricePlotSetup): uPlot.Options {
  let left = 50
  let right = 0
  return {
    width: setup.width,
    height: setup.height,
    cursor: { drag: { x: true, y: false }, sync: { key: setup.syncKey } },
    padding: PLOT_PADDING,
    scales: {
      x: { time: true, range: windowRange(setup.barSeconds, setup.window) },
      y: { range: priceAxisRange(setup.window, setup.day) },
      vol: { range: (_u, _min, max) => [0, max * 4] },
      // Open and close lie within [low, high]: they sit on a fixed scale that uPlot never
      // autoscales (two fewer 100k scans per redraw); they only feed the legend.
      legend: { auto: false, range: () => [0, 1] },
    },
    axes: [
      {},
      {
        scale: 'y',
        values: (_u, ticks) => ticks.map((t) => setup.format(t)),
        // Wide enough for the longest label ("84,000.00"): uPlot's fixed 50 px clips prices.
        size: (_u, values) => {
          left = 18 + 7.5 * Math.max(4, ...(values ?? []).map((v) => String(v).length))
          setup.onAxisWidths(left, right)
          return left
        },
      },
      {
        // The compare scale: percent from the first visible bar, on the price scale's ticks.
        scale: 'y',
        side: 1,
        grid: { show: false },
        ticks: { show: false },
        values: (_u, ticks) => ticks.map((t) => setup.percentText(t)),
        size: () => {
          right = setup.hasCompare() ? 62 : 0
          setup.onAxisWidths(left, right)
          return right
        },
      },
    ],
    series: legendSeries(setup.format),
    hooks: { draw: setup.draw, setScale: setup.setScale },
  }
}

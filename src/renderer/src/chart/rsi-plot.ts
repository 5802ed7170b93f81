import type uPlot from 'uplot'
import type { BarColumns } from './plot/bar-columns'
import type { Overlay } from './chart-studies'
import { loneBarRange } from './interaction'
import { strokeLevels } from './plot/level-lines'
import type { AxisLayout } from './plot-link'

/** The RSI pane's plot height in CSS pixels, under the prices. */
export const RSI_HEIGHT = 84
/** Dashed guides: overbought and oversold. */
export const RSI_GUIDES = [30, 70] as const

export function rsiData(columns: BarColumns, rsi: Overlay | null): uPlot.AlignedData {
  return [columns[0], rsi?.values ?? []] as unknown as uPlot.AlignedData
}

/**
 * The RSI pane's uPlot options: 0..100 with guides at 30 and 70, no x axis of its own (its x
 * range follows the price plot's), and axes as wide as the price plot's so both plots line up.
 */
export function rsiPlotOptions(setup: {
  syncKey: string
  layout: () => AxisLayout
  label: string
  colour: string
  barSeconds: () => number
  guideColour: () => string
}): uPlot.Options {
  const guides = (u: uPlot): void =>
    strokeLevels(u, RSI_GUIDES, { scale: 'rsi', colour: setup.guideColour(), dash: [4, 4] })
  return {
    width: setup.layout().width,
    height: RSI_HEIGHT,
    cursor: { drag: { x: false, y: false }, sync: { key: setup.syncKey } },
    padding: [6, 16, 6, null],
    scales: {
      x: { time: true, range: loneBarRange(setup.barSeconds) },
      rsi: { auto: false, range: () => [0, 100] },
    },
    axes: [
      { show: false },
      {
        scale: 'rsi',
        splits: () => [0, 30, 70, 100],
        values: (_u, ticks) => ticks.map((t) => String(t)),
        size: () => setup.layout().left,
      },
      {
        scale: 'rsi',
        side: 1,
        grid: { show: false },
        ticks: { show: false },
        values: (_u, ticks) => ticks.map(() => ''),
        size: () => setup.layout().right,
      },
    ],
    series: [
      {},
      {
        label: setup.label,
        scale: 'rsi',
        stroke: setup.colour,
        width: 1.5,
        points: { show: false },
        value: (_u, v) => (v === null || v === undefined ? '—' : v.toFixed(1)),
      },
    ],
    hooks: { draw: [guides] },
  }
}

/** The pane's last RSI value and point count, as data for tests and assistive tech. */
export function rsiSummary(values: ReadonlyArray<number | null>): { last: string; points: string } {
  const last = values.findLast((v) => v !== null)
  return {
    last: last === undefined || last === null ? '' : last.toFixed(2),
    points: String(values.filter((v) => v !== null).length),
  }
}

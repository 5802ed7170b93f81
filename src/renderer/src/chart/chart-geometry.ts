import type uPlot from 'uplot'
import type { Point } from '../../../shared/drawings/drawing'
import type { ChartView, KeySteps } from './drawings/drawing-edit'
import { snapTime } from './drawings/drawing-edit'
import type { PlotFrame } from './drawings/drawing-screen'
import { alertKeyStep, roundPrice } from './interaction'

/**
 * What an overlay over the price plot needs of it (the drawings): the plot's scales as a frame
 * in CSS pixels, a pointer's place as a moment on the bars and a price, what is in view, the
 * arrow keys' steps. Read from the uPlot instance at each call, so it follows zoom and redraws.
 */
export interface ChartGeometry {
  frame: PlotFrame | null
  plot: { left: number; top: number; width: number; height: number }
  /** Moves on every redraw of the plot. */
  drawn: number
  toPoint(x: number, y: number): Point | null
  view(): ChartView | null
  steps(): KeySteps
  /** A moment near the right of the view: where a horizontal line's point shows. */
  at(): number
  /** A moment put on the bar grid. */
  snap(t: number): number
}

export interface GeometrySource {
  chart: uPlot | null
  plot: ChartGeometry['plot']
  drawn: number
  decimals: number
  barSeconds: number
  /** The bars' open times (s) and closes: the bar grid's phase and the last price. */
  times: readonly number[]
  closes: readonly number[]
}

export function chartGeometry(s: GeometrySource): ChartGeometry {
  const c = s.chart
  const barMs = s.barSeconds * 1000
  const phase = (s.times[0] ?? 0) * 1000
  const xRange = (): { min: number; max: number } | null => {
    const x = c?.scales.x
    return x?.min == null || x.max == null ? null : { min: x.min * 1000, max: x.max * 1000 }
  }
  return {
    plot: s.plot,
    drawn: s.drawn,
    frame:
      c === null || s.plot.width === 0
        ? null
        : {
            width: s.plot.width,
            height: s.plot.height,
            x: (t) => c.valToPos(t / 1000, 'x'),
            y: (price) => c.valToPos(price, 'y'),
          },
    toPoint: (x, y) => {
      if (c === null) return null
      const t = c.posToVal(x, 'x') * 1000
      const price = roundPrice(c.posToVal(y, 'y'), s.decimals)
      if (!Number.isFinite(t) || !(price > 0)) return null
      return { t: Math.max(0, snapTime(t, barMs, phase)), price }
    },
    view: () => {
      const x = xRange()
      const y = c?.scales.y
      const last = s.closes.at(-1)
      if (x === null || y?.min == null || y.max == null || last === undefined) return null
      return { tMin: x.min, tMax: x.max, pMin: y.min, pMax: y.max, last }
    },
    steps: () => ({ price: alertKeyStep(c?.scales.y, s.decimals), barMs }),
    at: () => {
      const x = xRange()
      return x === null ? 0 : x.min + (x.max - x.min) * 0.85
    },
    snap: (t) => Math.max(0, snapTime(t, barMs, phase)),
  }
}

import type uPlot from 'uplot'
import { buildingWindow } from './plot/price-range'

/**
 * How the trader moves around the chart, as plain rules the components call: the x range of a
 * lone bar or a chart still building, the price under the pointer, the step of an arrow key on an alert line and the keys
 * the focused chart answers. Zoom is uPlot's own x drag (price-plot.ts), reset by fitting the bars;
 * the crosshair follows across the price plot and the RSI pane through uPlot's cursor sync key.
 */

/**
 * uPlot cannot place a single point on a zero-width range, and for a lone time point it picks a
 * 1000-day range of its own (autoScaleX: 86400 / ms with seconds on x): one candle under a time
 * axis of years. A lone bar gets a bar's width each side instead.
 */
export function loneBarRange(barSeconds: () => number): uPlot.Range.Function {
  return (u, min, max) => {
    const xs = u.data[0]
    const t = xs.length === 1 ? xs[0] : min === max ? min : undefined
    return t === undefined || t === null ? [min, max] : [t - barSeconds(), t + barSeconds()]
  }
}

/**
 * The x range of a price plot showing `window` bars: fewer bars stand at their width at the right
 * of a window that ends at the last one (plot/price-range.ts buildingWindow), a full series is
 * fitted (a lone bar is a window of its own, so never under an axis of years).
 */
export function windowRange(barSeconds: () => number, window: () => number): uPlot.Range.Function {
  const lone = loneBarRange(barSeconds)
  return (u, min, max) => {
    const building = buildingWindow(u.data[0], barSeconds(), window())
    return building === null ? lone(u, min, max, 'x') : [building.min, building.max]
  }
}

/**
 * The x range that shows every bar and no more (Reset zoom, a new series), or the window a chart
 * still building shows; a lone bar gets a bar's width each side. uPlot accepts an explicit
 * zero-width range for a single point, and its time axis then spans years (one ETHUSDT candle
 * under "Jan 2027 .. Jul 2029").
 */
export function fitRange(
  times: readonly number[],
  barSeconds: number,
  window = 0,
): { min: number; max: number } | null {
  const first = times[0]
  const last = times[times.length - 1]
  if (first === undefined || last === undefined) return null
  const building = buildingWindow(times, barSeconds, window)
  if (building !== null) return building
  return first === last
    ? { min: first - barSeconds, max: last + barSeconds }
    : { min: first, max: last }
}

export function roundPrice(price: number, decimals: number): number {
  return Number(price.toFixed(decimals))
}

/** The price at a pointer's height over the plot, at the symbol's precision; null off the scale. */
export function priceAtY(plotY: number, posToVal: (y: number) => number, decimals: number) {
  const p = posToVal(plotY)
  return Number.isFinite(p) && p > 0 ? roundPrice(p, decimals) : null
}

/** One arrow press on an alert line: a hundredth of the visible price range, at least one tick. */
export function alertKeyStep(
  y: { min?: number | null; max?: number | null } | undefined,
  decimals: number,
): number {
  const span = y?.min != null && y.max != null ? y.max - y.min : 1
  return Math.max(10 ** -decimals, roundPrice(span / 100, decimals))
}

/** Steps per key on a focused alert line; Enter commits, the rest are not the line's. */
export const LINE_STEPS: Readonly<Record<string, number>> = {
  ArrowUp: 1,
  ArrowDown: -1,
  PageUp: 10,
  PageDown: -10,
}

/** Held arrows send one command when they stop, not one per step. */
export const LINE_COMMIT_MS = 600

/**
 * What a key on the focused chart itself does: A opens the alert form, D the drawing tools, the
 * menu key the menu, minus zooms out and plus zooms in (the wheel's steps, around the middle of
 * the view).
 */
export function chartKeyAction(e: {
  key: string
  shiftKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
}): 'alert' | 'menu' | 'draw' | 'zoomOut' | 'zoomIn' | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null
  if (e.key === 'a' || e.key === 'A') return 'alert'
  if (e.key === 'd' || e.key === 'D') return 'draw'
  if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) return 'menu'
  if (e.key === '-' || e.key === '_') return 'zoomOut'
  if (e.key === '+' || e.key === '=') return 'zoomIn'
  return null
}

/** One wheel notch (or one key press) widens or narrows the view by this factor. */
export const ZOOM_STEP = 1.25

/**
 * The x range after one zoom step around `anchor` (0 = left edge, 1 = right edge of the view):
 * out widens it, in narrows it, kept within the bars (`first`..`last`) and at least a few bars
 * wide. `older` is true when zooming out met the first bar: the chart asks for older bars (up
 * to the spec's 5000 a request: spec, kline limit).
 */
export function zoomStep(
  view: { min: number; max: number },
  anchor: number,
  out: boolean,
  bars: { first: number; last: number; barSeconds: number },
): { min: number; max: number; older: boolean } {
  const span = view.max - view.min
  const next = Math.max(bars.barSeconds * 5, out ? span * ZOOM_STEP : span / ZOOM_STEP)
  const at = view.min + span * Math.min(1, Math.max(0, anchor))
  let min = at - (at - view.min) * (next / span)
  let max = min + next
  const older = out && min <= bars.first
  if (min < bars.first) [min, max] = [bars.first, bars.first + next]
  if (max > bars.last) [min, max] = [Math.max(bars.first, bars.last - next), bars.last]
  return { min, max, older }
}

/** Escape in a form over the chart closes the form only, not the chart (the desk's Escape). */
export function closeOnEscape(e: KeyboardEvent, close: () => void): void {
  if (e.key !== 'Escape') return
  e.preventDefault()
  e.stopPropagation()
  close()
}

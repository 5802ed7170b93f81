import type { Drawing, Point } from '../../../../shared/drawings/drawing'
import {
  anchorPoint,
  shifted,
  withAnchor,
  type Anchor,
} from '../../../../shared/drawings/drawing-geometry'

/**
 * How a trader makes and changes a drawing, as plain rules the drawing layer calls: a drawing
 * from the points a pointer gave, one placed in view for the keyboard, an arrow key's move of a
 * drawing or one of its points. Times are epoch ms, snapped to the chart's bars.
 */

/** The drawing tools; `cursor` selects and moves what is drawn. */
export const TOOLS = ['cursor', 'hline', 'ray', 'trend', 'range'] as const
export type Tool = (typeof TOOLS)[number]

export const TOOL_LABELS: Readonly<Record<Tool, string>> = {
  cursor: 'Select',
  hline: 'Horizontal line',
  ray: 'Horizontal ray',
  trend: 'Trend line',
  range: 'Price range',
}

/** Tools drawn from one point (a click); the others from two (a drag, or two clicks). */
export function onePoint(tool: Tool): boolean {
  return tool === 'hline' || tool === 'ray'
}

/** A fresh id for a drawing: letters and digits only (the schema's id). */
export function drawingId(): string {
  return `d${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`
}

/** A moment on the chart's bar grid: the nearest bar open, `barMs` apart from `phase`. */
export function snapTime(t: number, barMs: number, phase: number): number {
  return phase + Math.round((t - phase) / barMs) * barMs
}

/**
 * The drawing the points make: a horizontal line or ray from the first, a trend line or a range
 * from both; null when two points make nothing (one moment for a trend line, no height or no
 * length for a range).
 */
export function drawingFrom(tool: Tool, id: string, p1: Point, p2: Point = p1): Drawing | null {
  switch (tool) {
    case 'hline':
      return { kind: 'line', id, line: { shape: 'hline', price: p1.price } }
    case 'ray':
      return { kind: 'line', id, line: { shape: 'ray', from: p1 } }
    case 'trend': {
      if (p1.t === p2.t) return null
      const [a, b] = p1.t < p2.t ? [p1, p2] : [p2, p1]
      return { kind: 'line', id, line: { shape: 'trend', a, b } }
    }
    case 'range': {
      const [from, to] = [Math.min(p1.t, p2.t), Math.max(p1.t, p2.t)]
      const [low, high] = [Math.min(p1.price, p2.price), Math.max(p1.price, p2.price)]
      if (from === to || low === high) return null
      return { kind: 'range', id, range: { from, to, low, high } }
    }
    case 'cursor':
      return null
  }
}

/** What the chart shows now, for placing a drawing with the keyboard. */
export interface ChartView {
  /** The visible moments (epoch ms) and prices. */
  tMin: number
  tMax: number
  pMin: number
  pMax: number
  /** The last price: a horizontal line or ray is placed there. */
  last: number
}

/**
 * A drawing placed in the middle of the view, for the keyboard: lines at the last price, a trend
 * line rising through the middle, a range around the last price. The trader then moves its
 * points with the arrow keys. `snap` puts the moments on the bars.
 */
export function placedInView(
  tool: Tool,
  id: string,
  v: ChartView,
  snap: (t: number) => number,
): Drawing | null {
  const at = (fx: number, fy: number): Point => ({
    t: snap(v.tMin + (v.tMax - v.tMin) * fx),
    price: v.pMin + (v.pMax - v.pMin) * fy,
  })
  const last = (fx: number): Point => ({ ...at(fx, 0), price: v.last })
  if (tool === 'hline' || tool === 'ray') return drawingFrom(tool, id, last(0.5))
  if (tool === 'trend') return drawingFrom(tool, id, at(0.3, 0.35), at(0.7, 0.65))
  return drawingFrom(tool, id, at(0.4, 0.4), at(0.8, 0.6))
}

/** What arrow keys move: the whole drawing, or one of its points. */
export type Grip = 'whole' | Anchor

/** One arrow press: a price step (up, down) and a bar (left, right); Shift moves ten. */
export interface KeySteps {
  price: number
  barMs: number
}

const ARROWS: Readonly<Record<string, [dt: number, dp: number]>> = {
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
}

/** Whether a key is one the drawing moves by. */
export function isMoveKey(key: string): boolean {
  return key in ARROWS
}

/**
 * The drawing after an arrow key on `grip`: null for a key that is not an arrow or a move that
 * makes no drawing (a price at zero, two points at one moment). `at` is where a horizontal line's
 * point shows (it has no moment of its own).
 */
export function keyMoved(
  d: Drawing,
  grip: Grip,
  e: { key: string; shiftKey: boolean },
  steps: KeySteps,
  at: number,
): Drawing | null {
  const arrow = ARROWS[e.key]
  if (arrow === undefined) return null
  const times = e.shiftKey ? 10 : 1
  const dt = arrow[0] * steps.barMs * times
  const dp = arrow[1] * steps.price * times
  if (grip === 'whole') return shifted(d, dt, dp)
  const p = anchorPoint(d, grip, at)
  if (p.price + dp <= 0) return null
  return withAnchor(d, grip, { t: Math.max(0, p.t + dt), price: p.price + dp })
}

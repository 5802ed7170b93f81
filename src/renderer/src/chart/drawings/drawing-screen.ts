import { drawingName, type Drawing } from '../../../../shared/drawings/drawing'
import { anchorPoint, anchorsOf, type Anchor } from '../../../../shared/drawings/drawing-geometry'

/**
 * A drawing on a plot: where its price and time fall in pixels, what is drawn (a segment running
 * on to the plot's right edge for a ray or a trend line, a rectangle for a range) and its words
 * for assistive technology. The frame comes from the plot's scales on each redraw, so a drawing
 * stays on its prices and moments whatever the zoom or the interval.
 */
export interface PlotFrame {
  /** The plot area's size in CSS pixels. */
  width: number
  height: number
  /** A moment (epoch ms) and a price to pixels inside the plot area. */
  x(t: number): number
  y(price: number): number
}

export type Shape =
  | { kind: 'segment'; x1: number; y1: number; x2: number; y2: number }
  | { kind: 'rect'; x: number; y: number; w: number; h: number }

/** How far past the plot a line is carried, so its end never shows inside it. */
const PAST_EDGE = 8

export function shapeOf(d: Drawing, f: PlotFrame): Shape {
  const right = f.width + PAST_EDGE
  if (d.kind === 'range') {
    const r = d.range
    const x1 = f.x(r.from)
    const x2 = r.to === null ? right : f.x(r.to)
    const y1 = f.y(r.high)
    return { kind: 'rect', x: x1, y: y1, w: Math.max(1, x2 - x1), h: Math.max(1, f.y(r.low) - y1) }
  }
  const l = d.line
  if (l.shape === 'hline') {
    const y = f.y(l.price)
    return { kind: 'segment', x1: -PAST_EDGE, y1: y, x2: right, y2: y }
  }
  if (l.shape === 'ray') {
    const y = f.y(l.from.price)
    return { kind: 'segment', x1: f.x(l.from.t), y1: y, x2: right, y2: y }
  }
  const [xa, ya, xb, yb] = [f.x(l.a.t), f.y(l.a.price), f.x(l.b.t), f.y(l.b.price)]
  // Extended to the right: the same slope on to the plot's edge.
  const x2 = Math.max(xb, right)
  const y2 = xb === xa ? yb : ya + ((yb - ya) * (x2 - xa)) / (xb - xa)
  return { kind: 'segment', x1: xa, y1: ya, x2, y2 }
}

/** A drawing's grips in pixels: where its points are shown (and grabbed). */
export function gripsOf(
  d: Drawing,
  f: PlotFrame,
  at: number,
): Array<{ anchor: Anchor; x: number; y: number }> {
  return anchorsOf(d).map((anchor) => {
    const p = anchorPoint(d, anchor, at)
    return { anchor, x: f.x(p.t), y: f.y(p.price) }
  })
}

/** Where a point is on a drawing, in the trader's words: "start", "end", "top left corner"… */
export function anchorWords(d: Drawing, anchor: Anchor): string {
  if (d.kind === 'range') return anchor === 'a' ? 'start and high' : 'end and low'
  if (d.kind === 'line' && d.line.shape === 'trend')
    return anchor === 'a' ? 'first point' : 'second point'
  return 'point'
}

/**
 * "Trend line from 66,900.00 at 14:00 to 67,400.00 at 15:00": a drawing's accessible name and the
 * start of its menu's title. `price` and `time` format a price and a moment as the chart does.
 */
export function drawingWords(
  d: Drawing,
  price: (p: number) => string,
  time: (t: number) => string,
): string {
  const name = drawingName(d)
  const title = name.charAt(0).toUpperCase() + name.slice(1)
  if (d.kind === 'range') {
    const r = d.range
    const until = r.to === null ? 'on to the right' : `to ${time(r.to)}`
    return `${title} ${price(r.low)} to ${price(r.high)}, from ${time(r.from)} ${until}`
  }
  const l = d.line
  if (l.shape === 'hline') return `${title} at ${price(l.price)}`
  if (l.shape === 'ray') return `${title} at ${price(l.from.price)} from ${time(l.from.t)}`
  return `${title} from ${price(l.a.price)} at ${time(l.a.t)} to ${price(l.b.price)} at ${time(l.b.t)}`
}

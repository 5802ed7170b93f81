import type { Drawing, Line, Point, Range } from './drawing'

/**
 * Where a drawing is at a moment, in price: the one rule the chart draws by and the alert engine
 * evaluates by, so what the trader sees crossing is what fires. Times are epoch ms.
 */

/**
 * The line's price at `t`; null where the line is not drawn (a ray or a trend line before its
 * first point). A trend line is straight in time (the chart's x axis is time), through its two
 * points and on to the right of the second.
 */
export function lineAt(line: Line, t: number): number | null {
  switch (line.shape) {
    case 'hline':
      return line.price
    case 'ray':
      return t < line.from.t ? null : line.from.price
    case 'trend': {
      const { a, b } = line
      if (t < a.t) return null
      return a.price + ((b.price - a.price) * (t - a.t)) / (b.t - a.t)
    }
  }
}

/** The range's prices at `t`: null before it starts or after it ends. */
export function rangeAt(range: Range, t: number): { low: number; high: number } | null {
  if (t < range.from || (range.to !== null && t > range.to)) return null
  return { low: range.low, high: range.high }
}

/** The points a trader can grab and move: one for a line or a ray, two for the rest. */
export type Anchor = 'a' | 'b'

export function anchorsOf(d: Drawing): Anchor[] {
  if (d.kind === 'range' || d.line.shape === 'trend') return ['a', 'b']
  return ['a']
}

/**
 * An anchor's point. A horizontal line has no moment of its own: its anchor sits at `at` (where
 * the chart shows it). A range's anchors are its corners: `a` the start at the high, `b` the end
 * (or `at`, when it extends right) at the low.
 */
export function anchorPoint(d: Drawing, anchor: Anchor, at: number): Point {
  if (d.kind === 'range') {
    const r = d.range
    return anchor === 'a' ? { t: r.from, price: r.high } : { t: r.to ?? at, price: r.low }
  }
  const l = d.line
  if (l.shape === 'hline') return { t: at, price: l.price }
  if (l.shape === 'ray') return l.from
  return anchor === 'a' ? l.a : l.b
}

/**
 * The drawing with one anchor moved to `p`; null when that would make no drawing (a trend line's
 * points at one moment, a range with no height or no length). Points that pass each other swap,
 * so a trend line's first point stays the earlier and a range's low the lower.
 */
export function withAnchor(d: Drawing, anchor: Anchor, p: Point): Drawing | null {
  if (d.kind === 'range') {
    const r = d.range
    const c1 = anchor === 'a' ? p : { t: r.from, price: r.high }
    const c2 = anchor === 'b' ? p : { t: r.to ?? p.t, price: r.low }
    const low = Math.min(c1.price, c2.price)
    const high = Math.max(c1.price, c2.price)
    if (low === high) return null
    // A range extended to the right keeps no end: its end corner moves only its low.
    if (r.to === null) return { ...d, range: { from: c1.t, to: null, low, high } }
    const from = Math.min(c1.t, c2.t)
    const to = Math.max(c1.t, c2.t)
    return from === to ? null : { ...d, range: { from, to, low, high } }
  }
  const l = d.line
  if (l.shape === 'hline') return { ...d, line: { shape: 'hline', price: p.price } }
  if (l.shape === 'ray') return { ...d, line: { shape: 'ray', from: p } }
  const other = anchor === 'a' ? l.b : l.a
  if (other.t === p.t) return null
  const [a, b] = other.t < p.t ? [other, p] : [p, other]
  return { ...d, line: { shape: 'trend', a, b } }
}

/**
 * The whole drawing moved by `dt` ms and `dp` in price; null when a price would reach zero or a
 * range would collapse. A move to before 1970 stops there for the whole drawing (its points keep
 * their spacing).
 */
export function shifted(d: Drawing, dt: number, dp: number): Drawing | null {
  const by = Math.max(dt, -earliest(d))
  const move = (p: Point): Point => ({ t: p.t + by, price: p.price + dp })
  if (d.kind === 'range') {
    const r = d.range
    const low = r.low + dp
    const high = r.high + dp
    // A range thinner than a float's step at its new price would collapse there (the fuzz found
    // one a millionth wide moved up by a million): it cannot be moved, as a price at zero.
    if (low <= 0 || low >= high) return null
    const to = r.to === null ? null : r.to + by
    return { ...d, range: { from: r.from + by, to, low, high } }
  }
  const l = d.line
  const lowest =
    l.shape === 'hline'
      ? l.price
      : l.shape === 'ray'
        ? l.from.price
        : Math.min(l.a.price, l.b.price)
  if (lowest + dp <= 0) return null
  if (l.shape === 'hline') return { ...d, line: { shape: 'hline', price: l.price + dp } }
  if (l.shape === 'ray') return { ...d, line: { shape: 'ray', from: move(l.from) } }
  return { ...d, line: { shape: 'trend', a: move(l.a), b: move(l.b) } }
}

/** The earliest moment a drawing has (0 for a horizontal line, which has none). */
function earliest(d: Drawing): number {
  if (d.kind === 'range') return d.range.from
  const l = d.line
  return l.shape === 'hline' ? 0 : l.shape === 'ray' ? l.from.t : l.a.t
}

/** Every price a drawing spans (its anchors' and a range's bounds): what a y range may include. */
export function drawingPrices(d: Drawing): number[] {
  if (d.kind === 'range') return [d.range.low, d.range.high]
  const l = d.line
  if (l.shape === 'hline') return [l.price]
  if (l.shape === 'ray') return [l.from.price]
  return [l.a.price, l.b.price]
}

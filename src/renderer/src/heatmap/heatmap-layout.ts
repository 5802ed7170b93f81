/**
 * Where each heatmap tile goes: an even grid (sized alike), or a squarified treemap (sized by a
 * weight: tiles near square, the heaviest first), and where an arrow key moves the focus. Plain
 * numbers in CSS pixels, no DOM.
 */
export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/** The smallest a tile gets in an even grid: room for a symbol over its figure. */
export const MIN_TILE = { w: 68, h: 38 }

/**
 * `n` tiles alike in a `width` x `height` box, about 1.6 times as wide as tall: they fill the box,
 * or scroll (the box grows down) once they would be smaller than MIN_TILE.
 */
export function evenGrid(
  n: number,
  width: number,
  height: number,
): { rects: Rect[]; height: number } {
  if (n === 0 || width <= 0) return { rects: [], height: 0 }
  const fit = Math.max(1, Math.round(Math.sqrt((n * width) / (Math.max(1, height) * 1.6))))
  const cols = Math.max(1, Math.min(n, fit, Math.floor(width / MIN_TILE.w)))
  const rows = Math.ceil(n / cols)
  const w = width / cols
  const h = Math.max(MIN_TILE.h, height / rows)
  const rects: Rect[] = []
  for (let i = 0; i < n; i++) rects.push({ x: (i % cols) * w, y: Math.floor(i / cols) * h, w, h })
  return { rects, height: rows * h }
}

/**
 * Tiles sized by `weights` (one each, in order; a weight of 0 or less counts as the least
 * visible share, a tenth of an average tile) in a `width` x `height` box: the squarified treemap
 * of Bruls, Huizing and van Wijk. The rects come back in the weights' order.
 */
export function treemap(weights: readonly number[], width: number, height: number): Rect[] {
  const n = weights.length
  if (n === 0 || width <= 0 || height <= 0) return []
  const positive = weights.filter((w) => w > 0)
  const least =
    positive.length === 0 ? 1 : positive.reduce((a, b) => a + b, 0) / positive.length / 10
  const w = weights.map((x) => (x > 0 ? Math.max(x, least) : least))
  const total = w.reduce((a, b) => a + b, 0)
  const scale = (width * height) / total
  const order = w.map((_, i) => i).sort((a, b) => w[b]! - w[a]!)
  const out: Rect[] = new Array<Rect>(n)
  let box: Rect = { x: 0, y: 0, w: width, h: height }
  let row: number[] = []
  for (const i of order) {
    const side = Math.min(box.w, box.h)
    if (row.length > 0 && worst([...row, i], w, scale, side) > worst(row, w, scale, side)) {
      box = place(row, w, scale, box, out)
      row = []
    }
    row.push(i)
  }
  if (row.length > 0) place(row, w, scale, box, out)
  return out
}

/** The worst aspect ratio of a row of tiles laid along a side of length `side`. */
function worst(row: readonly number[], w: readonly number[], scale: number, side: number): number {
  const areas = row.map((i) => w[i]! * scale)
  const sum = areas.reduce((a, b) => a + b, 0)
  const max = Math.max(...areas)
  const min = Math.min(...areas)
  return Math.max((side * side * max) / (sum * sum), (sum * sum) / (side * side * min))
}

/** Lays a row along the box's shorter side; returns the box left over. */
function place(
  row: readonly number[],
  w: readonly number[],
  scale: number,
  box: Rect,
  out: Rect[],
): Rect {
  const sum = row.reduce((a, i) => a + w[i]! * scale, 0)
  const wide = box.w >= box.h
  const thick = sum / (wide ? box.h : box.w)
  let at = 0
  for (const i of row) {
    const len = (w[i]! * scale) / thick
    out[i] = wide
      ? { x: box.x, y: box.y + at, w: thick, h: len }
      : { x: box.x + at, y: box.y, w: len, h: thick }
    at += len
  }
  return wide
    ? { x: box.x + thick, y: box.y, w: box.w - thick, h: box.h }
    : { x: box.x, y: box.y + thick, w: box.w, h: box.h - thick }
}

const DIRECTIONS: Readonly<Record<string, [number, number]>> = {
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
}

/**
 * The tile an arrow key moves to from tile `from`: the nearest whose centre lies that way, the
 * sideways distance counting double (so Down goes to the tile below, not one far off to the side);
 * Home and End go to the first and the last. `from` itself when nothing lies that way; null for a
 * key that is not a move.
 */
export function tileMoveTo(rects: readonly Rect[], from: number, key: string): number | null {
  if (rects.length === 0) return null
  if (key === 'Home') return 0
  if (key === 'End') return rects.length - 1
  const dir = DIRECTIONS[key]
  if (dir === undefined) return null
  const c = centre(rects[from]!)
  let best = from
  let score = Number.POSITIVE_INFINITY
  for (let i = 0; i < rects.length; i++) {
    if (i === from) continue
    const p = centre(rects[i]!)
    const along = (p.x - c.x) * dir[0] + (p.y - c.y) * dir[1]
    if (along <= 0.5) continue
    const across = Math.abs((p.x - c.x) * dir[1] + (p.y - c.y) * dir[0])
    const s = along + 2 * across
    if (s < score) [best, score] = [i, s]
  }
  return best
}

function centre(r: Rect): { x: number; y: number } {
  return { x: r.x + r.w / 2, y: r.y + r.h / 2 }
}

/**
 * Which watchlist rows exist in the DOM: those in the scroll viewport plus a few either side.
 * Every row in the DOM costs paint work on every frame that paints anything (measured: 200 rows
 * in the table doubled a frame's paint time against 30), so rows out of view are not rendered at
 * all; the table says how many there are (aria-rowcount) and spacers keep the scroll height.
 * Without a viewport to measure (jsdom, a hidden tab) every row is rendered.
 */
export interface WindowInput {
  /** The scroll container's scrollTop. */
  scrollTop: number
  /** Its visible height; 0 when it cannot be measured. */
  viewportHeight: number
  /** Where row 0 starts, in the container's scroll coordinates. */
  bodyTop: number
  rowHeight: number
  total: number
  /** Extra rows rendered above and below the viewport. */
  overscan: number
}

export interface RowWindow {
  first: number
  count: number
}

export function rowWindow(i: WindowInput): RowWindow {
  if (i.viewportHeight <= 0 || i.rowHeight <= 0) return { first: 0, count: i.total }
  const top = i.scrollTop - i.bodyTop
  const clamp = (n: number): number => Math.min(i.total, Math.max(0, n))
  const first = clamp(Math.floor(top / i.rowHeight) - i.overscan)
  const end = clamp(Math.ceil((top + i.viewportHeight) / i.rowHeight) + i.overscan)
  return { first, count: Math.max(0, end - first) }
}

/** The scrollTop that brings row `index` fully into view (unchanged when it already is). */
export function scrollToRow(i: Omit<WindowInput, 'total' | 'overscan'>, index: number): number {
  const rowTop = i.bodyTop + index * i.rowHeight
  if (rowTop < i.scrollTop) return rowTop
  if (rowTop + i.rowHeight > i.scrollTop + i.viewportHeight)
    return rowTop + i.rowHeight - i.viewportHeight
  return i.scrollTop
}

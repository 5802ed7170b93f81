/**
 * The wall's grid: how many columns a number of tiles gets (about 16:10 tiles on a wide window,
 * 30 tiles as 6 x 5), and where an arrow key moves the focus.
 */
export function wallColumns(tiles: number): number {
  if (tiles <= 4) return 2
  if (tiles <= 9) return 3
  if (tiles <= 16) return 4
  if (tiles <= 25) return 5
  return 6
}

/**
 * The tile an arrow key moves to from `index`, in a grid of `count` tiles and `columns` columns:
 * left and right along the reading order, up and down by a row; never past the first or last
 * tile (Home and End go there). Null for a key that is not a move.
 */
export function tileMove(
  index: number,
  key: string,
  count: number,
  columns: number,
): number | null {
  if (count === 0) return null
  const last = count - 1
  const clamp = (i: number): number => Math.max(0, Math.min(last, i))
  switch (key) {
    case 'ArrowLeft':
      return clamp(index - 1)
    case 'ArrowRight':
      return clamp(index + 1)
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index
    case 'ArrowDown':
      return index + columns <= last ? index + columns : index
    case 'Home':
      return 0
    case 'End':
      return last
    default:
      return null
  }
}

/**
 * A key on a grid of tiles (the wall, the heatmap): Enter or Space opens the focused tile, a move
 * (`move`, from the focused tile) focuses another. Handled keys are taken from the page; a key
 * with a modifier, or one that is neither, is left alone.
 */
export function tileKeydown(
  e: KeyboardEvent,
  focused: string | undefined,
  move: (key: string) => number | null,
  act: { open: (key: string) => void; focus: (index: number) => void },
): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return
  const opens = e.key === 'Enter' || e.key === ' '
  const next = opens ? null : move(e.key)
  if ((opens && focused === undefined) || (!opens && next === null)) return
  e.preventDefault()
  e.stopPropagation()
  if (opens) act.open(focused as string)
  else act.focus(next as number)
}

import { DETAIL_SIZE } from '../../../shared/settings'

/**
 * The detail chart's share of the main pane (settings.layout.detailSize), moved by the splitter's
 * keys (WAI-ARIA window splitter: arrows step, Page keys jump, Home/End go to the ends).
 */
export const SPLIT_STEP = 0.05

export function clampSize(size: number): number {
  if (!Number.isFinite(size)) return DETAIL_SIZE.default
  return Math.min(DETAIL_SIZE.max, Math.max(DETAIL_SIZE.min, Math.round(size * 1000) / 1000))
}

/** The new size for a key on the splitter between the grid (above) and the chart (below). */
export function sizeForKey(size: number, key: string): number | null {
  switch (key) {
    case 'ArrowUp':
      return clampSize(size + SPLIT_STEP)
    case 'ArrowDown':
      return clampSize(size - SPLIT_STEP)
    case 'PageUp':
      return clampSize(size + SPLIT_STEP * 3)
    case 'PageDown':
      return clampSize(size - SPLIT_STEP * 3)
    case 'Home':
      return DETAIL_SIZE.max
    case 'End':
      return DETAIL_SIZE.min
    default:
      return null
  }
}

/** The size for a pointer at `y` over a pane spanning [top, top + height). */
export function sizeForPointer(y: number, top: number, height: number): number {
  if (height <= 0) return DETAIL_SIZE.default
  return clampSize((top + height - y) / height)
}

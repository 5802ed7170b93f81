import type { StripMotion, StripSpeed } from '../../../shared/settings'
import type { Watchlist } from '../../../shared/watchlist'

/**
 * How the ticker strip moves symbols that do not fit its one line:
 *   scroll  a continuous crawl right to left (pixels a second by speed), paused under the pointer
 *   page    the line turns to the next set of symbols every few seconds (seconds by speed)
 * Under prefers-reduced-motion it always pages, and a page turns without sliding.
 */
export const PAGE_MS: Record<StripSpeed, number> = { slow: 8000, normal: 5000, fast: 3000 }
export const SCROLL_PX_PER_S: Record<StripSpeed, number> = { slow: 30, normal: 60, fast: 110 }

export function effectiveMotion(motion: StripMotion, reducedMotion: boolean): StripMotion {
  return reducedMotion ? 'page' : motion
}

/** One lap of the crawl: the width of one copy of the symbols at the chosen speed. */
export function scrollDurationMs(copyWidthPx: number, speed: StripSpeed): number {
  return Math.max(1000, Math.round((copyWidthPx / SCROLL_PX_PER_S[speed]) * 1000))
}

/** The distinct line tops of wrapped items, top first: each line is one page. */
export function pageTops(offsetTops: readonly number[]): number[] {
  return [...new Set(offsetTops.map((t) => Math.round(t)))].sort((a, b) => a - b)
}

/** The list the strip shows: the one chosen for it, else the main window's active list. */
export function stripWatchlist(
  lists: readonly Watchlist[],
  chosenId: string | null,
  activeId: string | null,
): Watchlist | null {
  return (
    lists.find((w) => w.id === chosenId) ?? lists.find((w) => w.id === activeId) ?? lists[0] ?? null
  )
}

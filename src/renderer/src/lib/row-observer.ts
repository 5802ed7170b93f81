import type { RowVisibility } from '../state/row-visibility'

/**
 * One IntersectionObserver for all of a table's rows, feeding RowVisibility. The root is the
 * table's scroll container (the margin only widens the root, not the clip of an ancestor that
 * scrolls), and the margin of a few rows lets a row catch up before it enters the screen.
 * Without IntersectionObserver (jsdom, old engines) every row simply stays in view.
 */
export const ROW_MARGIN_PX = 240

export type TrackRow = (el: HTMLElement, key: string) => { destroy(): void }

function scrollContainer(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p !== null && p !== document.body; p = p.parentElement) {
    const { overflowY } = getComputedStyle(p)
    if (overflowY === 'auto' || overflowY === 'scroll') return p
  }
  return null
}

export function rowObserver(visibilityOf: () => RowVisibility): {
  track: TrackRow
  /** Rows moved (a re-sort): bring those now in view up to date before the browser paints. */
  recheck(): void
  disconnect(): void
} {
  let io: IntersectionObserver | null = null
  const keyOf = new WeakMap<Element, string>()

  const tracked = new Set<HTMLElement>()
  let root: HTMLElement | null = null

  /**
   * IntersectionObserver reports after the frame that moved the rows has painted; a scroll jump
   * larger than the margin would show held values for one frame. A scroll handler runs before
   * that frame is drawn: it brings up to date the hidden rows now inside the widened root (a
   * rect read per hidden row, layout is clean after the first). Hiding stays with the observer.
   * A re-sort moves rows the same way, so the table calls this after reordering too.
   */
  const onScroll = (): void => {
    const visibility = visibilityOf()
    if (root === null || visibility.hiddenCount === 0) return
    const box = root.getBoundingClientRect()
    const top = box.top - ROW_MARGIN_PX
    const bottom = box.bottom + ROW_MARGIN_PX
    const reports = []
    for (const el of tracked) {
      const key = keyOf.get(el)
      if (key === undefined || visibility.isInView(key)) continue
      const r = el.getBoundingClientRect()
      if (r.bottom >= top && r.top <= bottom) reports.push({ key, inView: true })
    }
    visibility.update(reports)
  }

  const ensure = (el: HTMLElement): IntersectionObserver | null => {
    if (io !== null || typeof IntersectionObserver !== 'function') return io
    root = scrollContainer(el)
    root?.addEventListener('scroll', onScroll, { passive: true })
    io = new IntersectionObserver(
      (entries) => {
        const reports = []
        for (const e of entries) {
          const key = keyOf.get(e.target)
          if (key !== undefined) reports.push({ key, inView: e.isIntersecting })
        }
        visibilityOf().update(reports)
      },
      { root, rootMargin: `${ROW_MARGIN_PX}px 0px` },
    )
    return io
  }

  const track: TrackRow = (el, key) => {
    // Painting until measured: the observer's first report hides it if it is off screen.
    visibilityOf().reset(key)
    keyOf.set(el, key)
    tracked.add(el)
    const observer = ensure(el)
    observer?.observe(el)
    return {
      destroy(): void {
        observer?.unobserve(el)
        keyOf.delete(el)
        tracked.delete(el)
      },
    }
  }

  return {
    track,
    recheck: onScroll,
    disconnect(): void {
      io?.disconnect()
      io = null
      root?.removeEventListener('scroll', onScroll)
      root = null
      tracked.clear()
    },
  }
}

import type { RowVisibility } from '../grid/row-visibility'

/**
 * Which strip items are inside the strip's line, fed to the QuoteBook's RowVisibility so only
 * symbols on screen write to the DOM (a crawl shows a dozen of fifty). A symbol can be on the
 * line twice while the crawl wraps (its second copy): it paints while any copy is in view.
 * Without IntersectionObserver (jsdom) everything stays in view.
 */
export const STRIP_MARGIN_PX = 120

export function stripVisibility(
  visibilityOf: () => RowVisibility,
  root: () => HTMLElement | null,
): { track(el: HTMLElement, key: string): { destroy(): void }; disconnect(): void } {
  let io: IntersectionObserver | null = null
  const keyOf = new WeakMap<Element, string>()
  const inView = new Map<string, Set<Element>>()

  const report = (entries: IntersectionObserverEntry[]): void => {
    const changed = new Set<string>()
    for (const e of entries) {
      const key = keyOf.get(e.target)
      if (key === undefined) continue
      const seen = inView.get(key) ?? new Set<Element>()
      if (e.isIntersecting) seen.add(e.target)
      else seen.delete(e.target)
      inView.set(key, seen)
      changed.add(key)
    }
    visibilityOf().update(
      [...changed].map((key) => ({ key, inView: (inView.get(key)?.size ?? 0) > 0 })),
    )
  }

  const observer = (): IntersectionObserver | null => {
    if (io !== null || typeof IntersectionObserver !== 'function') return io
    io = new IntersectionObserver(report, {
      root: root(),
      rootMargin: `0px ${STRIP_MARGIN_PX}px`,
    })
    return io
  }

  return {
    track(el, key) {
      visibilityOf().reset(key)
      keyOf.set(el, key)
      observer()?.observe(el)
      return {
        destroy() {
          io?.unobserve(el)
          keyOf.delete(el)
          inView.get(key)?.delete(el)
        },
      }
    },
    disconnect() {
      io?.disconnect()
      io = null
      inView.clear()
    },
  }
}

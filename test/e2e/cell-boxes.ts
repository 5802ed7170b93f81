import type { Page } from 'playwright-core'

/** Something drawn outside the grid cell it belongs to. */
export interface Spill {
  row: string
  column: string
  what: string
  /** How far past the cell, in px, on the worst side. */
  by: number
}

/**
 * Every piece of content of every grid cell (header and rows): each element's box and each text's
 * own box (a Range, so text running out of a fixed-size box is caught) must lie inside the cell.
 * Text inside an element that clips (overflow other than visible, e.g. an ellipsis) is judged by
 * that element's box, which is what the eye sees.
 */
export function spills(page: Page, tolerancePx = 0.5): Promise<Spill[]> {
  return page.evaluate((tol) => {
    const out: Array<{ row: string; column: string; what: string; by: number }> = []
    const past = (inner: DOMRect, outer: DOMRect): number =>
      Math.max(
        outer.left - inner.left,
        inner.right - outer.right,
        outer.top - inner.top,
        inner.bottom - outer.bottom,
      )
    const clips = (el: Element, cell: Element): boolean => {
      for (let e: Element | null = el; e && e !== cell; e = e.parentElement) {
        if (getComputedStyle(e).overflowX !== 'visible') return true
      }
      return false
    }
    const rows = document.querySelectorAll('table.watchlist thead tr, table.watchlist tbody tr')
    for (const tr of rows) {
      const row = (tr as HTMLElement).dataset.key ?? 'header'
      const cells = [...tr.children]
      cells.forEach((cell, i) => {
        const column =
          (cell as HTMLElement).dataset.field ??
          document.querySelectorAll('table.watchlist col')[i]?.getAttribute('data-col') ??
          String(i)
        const box = cell.getBoundingClientRect()
        for (const el of cell.querySelectorAll('*')) {
          const r = el.getBoundingClientRect()
          if (r.width === 0 && r.height === 0) continue
          // Inside a clipping element, only what that element shows counts.
          if (el.parentElement !== cell && clips(el.parentElement as Element, cell)) continue
          const by = past(r, box)
          if (by > tol) out.push({ row, column, what: `<${el.localName}> ${el.textContent}`, by })
        }
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          if (!t.textContent?.trim() || clips(t.parentElement as Element, cell)) continue
          const range = document.createRange()
          range.selectNodeContents(t)
          const by = past(range.getBoundingClientRect(), box)
          if (by > tol) out.push({ row, column, what: `"${t.textContent}"`, by })
        }
      })
    }
    return out
  }, tolerancePx)
}

/** The text of one figure cell. */
export async function figure(page: Page, key: string, field: string): Promise<string> {
  const text = await page
    .locator(`tbody tr[data-key="${key}"] [data-field="${field}"]`)
    .textContent()
  return (text ?? '').trim()
}

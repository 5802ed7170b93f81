/** Reads the main window's watchlist grid the way a trader sees it: a row, its cells. */
export function row(key: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`tbody tr[data-key="${key}"]`)
  if (!el) throw new Error(`no row ${key}`)
  return el
}

export function lastCell(key: string): HTMLElement {
  const el = row(key).querySelector<HTMLElement>('[data-field="last"]')
  if (!el) throw new Error(`no last cell for ${key}`)
  return el
}

export function cell(key: string, field: string): string {
  return row(key).querySelector(`[data-field="${field}"]`)?.textContent?.trim() ?? ''
}

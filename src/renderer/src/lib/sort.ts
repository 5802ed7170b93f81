/**
 * Watchlist column sorting. The watchlist's own order is the default ("none"); sorting by a column
 * is a view over it, never written back. Missing values sort last in both directions so an empty
 * row never jumps to the top.
 */
export const SORT_COLUMNS = [
  'symbol',
  'last',
  'change',
  'changePercent',
  'high',
  'low',
  'volume',
  'bid',
  'ask',
] as const
export type SortColumn = (typeof SORT_COLUMNS)[number]
export type SortDirection = 'ascending' | 'descending'
export interface SortSpec {
  column: SortColumn
  direction: SortDirection
}

export type SortValue = string | number | null

/** Header click cycle: ascending -> descending -> watchlist order. */
export function nextSort(current: SortSpec | null, column: SortColumn): SortSpec | null {
  if (current === null || current.column !== column) return { column, direction: 'ascending' }
  if (current.direction === 'ascending') return { column, direction: 'descending' }
  return null
}

export function ariaSort(
  current: SortSpec | null,
  column: SortColumn,
): 'ascending' | 'descending' | 'none' {
  return current !== null && current.column === column ? current.direction : 'none'
}

export function sortKeys(
  keys: readonly string[],
  spec: SortSpec | null,
  valueOf: (key: string, column: SortColumn) => SortValue,
): string[] {
  if (spec === null) return [...keys]
  const sign = spec.direction === 'ascending' ? 1 : -1
  const decorated = keys.map((key, index) => ({ key, index, value: valueOf(key, spec.column) }))
  decorated.sort((a, b) => {
    if (a.value === null && b.value === null) return a.index - b.index
    if (a.value === null) return 1
    if (b.value === null) return -1
    const cmp =
      typeof a.value === 'string' || typeof b.value === 'string'
        ? String(a.value).localeCompare(String(b.value))
        : a.value - b.value
    return cmp === 0 ? a.index - b.index : cmp * sign
  })
  return decorated.map((d) => d.key)
}

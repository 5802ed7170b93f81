import type { SortColumn, SortSpec } from '../../../shared/grid'

/**
 * Watchlist column sorting. The watchlist's own order is the default ("none"); sorting by a column
 * is a view over it, never written into the list (each list's sort is remembered in the grid
 * settings instead). Missing values sort last in both directions so an empty row never jumps to
 * the top.
 */
export type { SortColumn, SortSpec } from '../../../shared/grid'
export type SortDirection = SortSpec['direction']

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

/** One collator for every sort: String.localeCompare builds one per call (5000 rows: ~60k calls). */
const collator = new Intl.Collator()

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
        ? collator.compare(String(a.value), String(b.value))
        : a.value - b.value
    return cmp === 0 ? a.index - b.index : cmp * sign
  })
  return decorated.map((d) => d.key)
}

/** A list's symbols in both orders, kept while the list is the same array. */
const symbolOrders = new WeakMap<
  readonly string[],
  { ascending: readonly string[]; descending: readonly string[] }
>()

/**
 * A list sorted by symbol. Symbols never move with prices, so the order is computed once per
 * list (sorting 5000 keys through the collator takes ~15 ms) and a header click only picks it:
 * ahead of the click when the list is shown (prepareSymbolOrder, in an idle moment), or on the
 * first click. A list holds each symbol once, so descending is ascending reversed.
 */
export function symbolOrder(keys: readonly string[], direction: SortDirection): readonly string[] {
  let orders = symbolOrders.get(keys)
  if (orders === undefined) {
    const ascending = sortKeys(keys, { column: 'symbol', direction: 'ascending' }, (key) => key)
    orders = { ascending, descending: [...ascending].reverse() }
    symbolOrders.set(keys, orders)
  }
  return orders[direction]
}

/** Sorts a list by symbol ahead of a header click (see symbolOrder). */
export function prepareSymbolOrder(keys: readonly string[]): void {
  symbolOrder(keys, 'ascending')
}

import type { GridPatch, GridSettings, SortSpec } from '../../../shared/grid'

/**
 * Each watchlist's sort, remembered in settings.grid.sorts. Saving one list's sort also forgets
 * the sorts of lists that no longer exist, so the map never outgrows the lists.
 */
export function sortPatch(
  grid: GridSettings,
  listId: string,
  spec: SortSpec | null,
  listIds: readonly string[],
): GridPatch {
  const sorts: Record<string, SortSpec | null> = { [listId]: spec }
  for (const id of Object.keys(grid.sorts)) if (!listIds.includes(id)) sorts[id] = null
  return { sorts }
}

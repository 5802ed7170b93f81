import { mergeGrid, type GridPatch, type GridSettings } from '../../../shared/grid'
import type { Watchlist } from '../../../shared/watchlist'
import { columnDefs, type ColumnDef } from '../lib/columns'
import { sortPatch } from '../lib/grid-prefs'
import { sortKeys, type SortSpec } from '../lib/sort'
import type { AppState } from './app-state.svelte'

/**
 * The main window's view of the active watchlist: which columns, how dense, and its rows in
 * display order. It follows settings.grid; a change shows at once and is then saved (`save`),
 * so a click never waits for the host's answer.
 */
export class GridView {
  grid = $derived.by((): GridSettings => this.app.settings.grid)
  readonly columns = $derived.by((): ColumnDef[] => columnDefs(this.grid.columns))
  readonly active = $derived.by((): Watchlist | null => this.app.activeWatchlist)
  /** The active list's remembered sort; null shows the list's own order. */
  readonly sort = $derived.by((): SortSpec | null =>
    this.active ? (this.grid.sorts[this.active.id] ?? null) : null,
  )
  /** The rows in display order. */
  readonly keys = $derived.by((): string[] => {
    const symbols = this.active?.symbols ?? []
    const sort = this.sort
    if (sort === null) return symbols
    // Sorting reads every row's newest (plain) value, painted or not, and re-sorts each frame.
    void this.app.book.frame
    return sortKeys(symbols, sort, (key, column) => {
      const row = this.app.book.row(key)
      return column === 'symbol' ? row.key : row.value(column)
    })
  })

  constructor(
    private readonly app: AppState,
    private readonly save: (patch: GridPatch) => void,
  ) {}

  change(patch: GridPatch): void {
    this.grid = mergeGrid(this.grid, patch)
    this.save(patch)
  }

  setSort(next: SortSpec | null): void {
    const list = this.active
    if (list === null) return
    const ids = this.app.watchlists.map((w) => w.id)
    this.change(sortPatch(this.grid, list.id, next, ids))
  }
}

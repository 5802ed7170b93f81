import { mergeGrid, type GridPatch, type GridSettings } from '../../../shared/grid'
import { spreadBps } from '../../../shared/spread'
import type { Watchlist } from '../../../shared/watchlist'
import { columnDefs, type ColumnDef } from './columns'
import { sortPatch } from './grid-prefs'
import { sortKeys, symbolOrder, type SortSpec } from './sort'
import { afterPaint } from '../lib/when-idle'
import type { AppState } from '../state/app-state.svelte'

/**
 * The main window's view of the active watchlist: which columns, how dense, and its rows in
 * display order. It follows settings.grid; a change shows at once and is then saved (`save`),
 * so a click never waits for the host's answer. Changes not yet answered stay over the host's
 * settings: a settings event sent before them (the host re-plans on each, 100 ms and more at
 * 5000 symbols) does not undo a header clicked meanwhile.
 */
export class GridView {
  private unanswered = $state.raw<GridPatch[]>([])
  readonly grid = $derived.by((): GridSettings =>
    this.unanswered.reduce<GridSettings>(
      (grid, patch) => mergeGrid(grid, patch),
      this.app.settings.grid,
    ),
  )
  /**
   * The same array while the chosen columns are the same: a sort or density change re-measures
   * no widths and repaints no cells (a 5000-row list's widths take a while to measure).
   */
  readonly columns = $derived.by((): ColumnDef[] => {
    const next = columnDefs(this.grid.columns)
    const last = this.lastColumns
    if (next.length === last.length && next.every((c, i) => c === last[i])) return last
    return (this.lastColumns = next)
  })
  private lastColumns: ColumnDef[] = []
  readonly active = $derived.by((): Watchlist | null => this.app.activeWatchlist)
  /** The active list's remembered sort; null shows the list's own order. */
  readonly sort = $derived.by((): SortSpec | null =>
    this.active ? (this.grid.sorts[this.active.id] ?? null) : null,
  )
  /** The rows in display order. */
  readonly keys = $derived.by((): readonly string[] => {
    const symbols = this.active?.symbols ?? []
    const sort = this.sort
    if (sort === null) return symbols
    if (sort.column === 'symbol') return symbolOrder(symbols, sort.direction)
    // Sorting reads every row's newest (plain) value, painted or not, and re-sorts each frame.
    void this.app.book.frame
    const column = sort.column
    return sortKeys(symbols, sort, (key) => {
      const row = this.app.book.row(key)
      // The spread sorts by bps: a spread in price says nothing across symbols.
      return column === 'spread' ? spreadBps(row.value('bid'), row.value('ask')) : row.value(column)
    })
  })

  constructor(
    private readonly app: AppState,
    private readonly save: (patch: GridPatch) => Promise<unknown>,
  ) {}

  change(patch: GridPatch): void {
    this.unanswered = [...this.unanswered, patch]
    const answered = (): void => {
      this.unanswered = this.unanswered.filter((p) => p !== patch)
    }
    // Saved after the frame that shows it: the click's frame does not encode and send it.
    void afterPaint()
      .then(() => this.save(patch))
      .then(answered, answered)
  }

  setSort(next: SortSpec | null): void {
    const list = this.active
    if (list === null) return
    const ids = this.app.watchlists.map((w) => w.id)
    this.change(sortPatch(this.grid, list.id, next, ids))
  }
}

/**
 * Which watchlist rows are rendered: the table renders only the rows on (or near) the screen
 * (row-window.ts). Rows out of it keep their newest values in plain fields (RowState) and
 * touch no reactive state; this module turns the table's window into hide/show calls, and show()
 * brings a row up to date at once, before it is created, so a row scrolling in never shows an
 * old number.
 *
 * Plain TypeScript, no DOM: WatchlistTable reports every key of the list, in the window or not.
 */
export interface ViewEntry {
  readonly key: string
  readonly inView: boolean
}

/** A row that can stop painting and catch up later. */
export interface Paintable {
  /** Starts painting again; writes the values held while hidden. */
  show(): void
  /** Keeps values in plain state only. */
  hide(): void
}

export class RowVisibility {
  /** Rows reported out of view. Unknown rows count as in view: never hide what was not measured. */
  private readonly hidden = new Set<string>()

  constructor(private readonly rowOf: (key: string) => Paintable) {}

  isInView(key: string): boolean {
    return !this.hidden.has(key)
  }

  get hiddenCount(): number {
    return this.hidden.size
  }

  /**
   * Applies a batch of reports (the last report of a key wins).
   * Returns how many rows came into view, each already brought up to date.
   */
  update(entries: Iterable<ViewEntry>): number {
    const latest = new Map<string, boolean>()
    for (const e of entries) latest.set(e.key, e.inView)
    let shown = 0
    for (const [key, inView] of latest) if (this.set(key, inView)) shown++
    return shown
  }

  /**
   * Reports a table at once: `spares` (rows kept hidden past a shorter list) out of view, then
   * every key of the list, in view when in `window`. The outcome of update() with one entry per
   * key, spares first, without an entry object or a map per key: a sort, a switch or a scroll of
   * a 5000-row list reports all 5000 in the input's own frame.
   */
  reportList(
    keys: readonly string[],
    window: ReadonlySet<string>,
    spares: Iterable<string> = [],
  ): number {
    let shown = 0
    // A spare in the window is the list's to report; one out of it is hidden either way.
    for (const key of spares) if (!window.has(key)) this.set(key, false)
    for (const key of keys) if (this.set(key, window.has(key))) shown++
    return shown
  }

  /** Moves one row to `inView`; true when it came back into view. */
  private set(key: string, inView: boolean): boolean {
    const wasHidden = this.hidden.has(key)
    if (inView && wasHidden) {
      this.hidden.delete(key)
      this.rowOf(key).show()
      return true
    }
    if (!inView && !wasHidden) {
      this.hidden.add(key)
      this.rowOf(key).hide()
    }
    return false
  }

  /**
   * A row element was mounted (or removed): it paints until measured. Mounting happens before the
   * browser paints, so a row that was hidden under another view shows current values at once.
   */
  reset(key: string): void {
    if (!this.hidden.delete(key)) return
    this.rowOf(key).show()
  }
}

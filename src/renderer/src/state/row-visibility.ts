/**
 * Which watchlist rows are rendered: the table renders only the rows on (or near) the screen
 * (lib/row-window.ts). Rows out of it keep their newest values in plain fields (RowState) and
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
    for (const [key, inView] of latest) {
      const wasHidden = this.hidden.has(key)
      if (inView && wasHidden) {
        this.hidden.delete(key)
        this.rowOf(key).show()
        shown++
      } else if (!inView && !wasHidden) {
        this.hidden.add(key)
        this.rowOf(key).hide()
      }
    }
    return shown
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

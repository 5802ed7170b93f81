/**
 * Which watchlist rows are on (or near) the screen. At 200 rows x 10k ticks/s only ~23 rows are in
 * view, yet writing every row's cells cost ~120 ms of style/layout/paint per frame. Rows out of
 * view keep their newest values in plain fields (RowState) and write nothing to the DOM; this
 * module turns IntersectionObserver reports into hide/show calls, and show() brings a row up to
 * date at once so a row scrolling in never shows an old number.
 *
 * Plain TypeScript, no DOM: the table's IntersectionObserver (observeRows) feeds it entries.
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
   * Applies a batch of reports (one IntersectionObserver callback; the last report of a key wins).
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
   * browser paints, so a row that was hidden under another tab shows current values at once.
   */
  reset(key: string): void {
    if (!this.hidden.delete(key)) return
    this.rowOf(key).show()
  }
}

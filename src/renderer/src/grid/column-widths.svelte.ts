import { untrack } from 'svelte'
import type { GridColumn } from '../../../shared/grid'
import type { Market } from '../../../shared/markets/market'
import { cellText } from './cell-text'
import type { ColumnDef, ColumnKind } from './columns'
import { textCh, type FitBudget } from './fit-number'
import { columnWidthCh, FIGURE_CAP_CH, headerCh } from '../../../shared/figures/figure-width'
import { whenIdle } from '../lib/when-idle'
import type { PriceValues } from '../state/price-fields'

/**
 * Widths of the figure columns, in ch, that fit the data: each is as wide as its widest figure at
 * full precision (or its header), up to a cap past which figures are shortened (lib/fit-number).
 *
 * Measured when the list or the columns change, and again when a figure did not fit (a price that
 * crossed 10,000,000): never per tick, never by reading layout. Until the new width lands (the
 * next frame), the figure is shown shorter, inside its cell. Columns only grow between list
 * changes, so a price flickering across a digit boundary does not move the table back and forth.
 */
export interface FigureRow {
  readonly market: Market
  readonly symbol: string
  /** The newest values, painted or not (rows out of view count too). */
  readonly newest: Readonly<PriceValues>
}

/** Past these widths a figure is shortened instead (shared/figures/figure-width.ts). */
const CAP_CH: Record<ColumnKind, number> = { ...FIGURE_CAP_CH, trend: 0, source: 0 }

export { headerCh }

/** Rows measured in one go (about 4 ms of formatting for 250 rows of eight figure columns). */
export const MEASURE_SLICE = 250

const isFigure = (c: ColumnDef): boolean => CAP_CH[c.kind] > 0

/** Raises each column's need to the width of this row's figure, where wider. */
function widen(need: Map<GridColumn, number>, figures: readonly ColumnDef[], row: FigureRow): void {
  for (const col of figures) {
    const w = textCh(cellText(col, row.newest, row.market, row.symbol))
    if (w > (need.get(col.id) ?? 0)) need.set(col.id, w)
  }
}

/* eslint-disable svelte/prefer-svelte-reactivity -- the maps are bookkeeping; what cells react to is `version` and `ch`. */
export class ColumnWidths {
  /** Bumped when any width changes: the cells' texts depend on it. */
  private version = $state(0)
  /** Content width in ch per figure column; read by the <col> elements. */
  ch = $state.raw<Partial<Record<GridColumn, number>>>({})
  private readonly budgets = new Map<GridColumn, FitBudget>()
  private columns: readonly ColumnDef[] = []
  private rows: () => Iterable<FigureRow> = () => []
  private scheduled = false
  /** Bumped by each measure: slices of an older one stop. */
  private runs = 0
  /**
   * What each list needed when last measured whole, by list (its array) and columns: shown
   * again, it gets those widths in the switch's frame and is measured again in idle slices.
   */
  private readonly known = new WeakMap<
    object,
    { columns: readonly ColumnDef[]; need: ReadonlyMap<GridColumn, number> }
  >()

  constructor(
    private readonly schedule: (run: () => void) => void = (run) => queueMicrotask(run),
    /** Where the slices after the first run: each in an idle moment, after the frame is drawn. */
    private readonly later: (run: () => void) => void = (run) => void whenIdle(run),
  ) {}

  /**
   * The budget a column's cells format against. Reading it makes the cell depend on the widths,
   * so a cell re-renders (once) when its column grows; the object itself is reused.
   */
  budget(id: GridColumn): FitBudget {
    void this.version
    return this.budgetOf(id)
  }

  /**
   * Measures every figure column over every row of the list (on a list or column change). What it
   * reads is not tracked: the caller's effect depends on the list and the columns only.
   */
  measure(columns: readonly ColumnDef[], rows: () => Iterable<FigureRow>, list?: object): void {
    this.columns = columns
    this.rows = rows
    untrack(() => this.recompute(false, list))
  }

  /**
   * Widens the columns for rows added to the list measured last (a symbol added at its end):
   * only those rows are read, and nothing narrows.
   */
  grow(rows: () => Iterable<FigureRow>): void {
    untrack(() => {
      const figures = this.columns.filter(isFigure)
      const need = new Map(figures.map((c) => [c.id, 0]))
      for (const row of rows()) widen(need, figures, row)
      this.apply(figures, need, true)
    })
  }

  /** Until measured, a column does not shorten anything. */
  private budgetOf(id: GridColumn): FitBudget {
    let b = this.budgets.get(id)
    if (b === undefined) {
      b = { ch: Number.POSITIVE_INFINITY, onOver: () => this.over(id) }
      this.budgets.set(id, b)
    }
    return b
  }

  private over(id: GridColumn): void {
    const col = this.columns.find((c) => c.id === id)
    const b = this.budgets.get(id)
    if (col === undefined || b === undefined || b.ch >= CAP_CH[col.kind] || this.scheduled) return
    this.scheduled = true
    this.schedule(() => {
      this.scheduled = false
      untrack(() => this.recompute(true))
    })
  }

  /**
   * Measures the rows in slices: the first MEASURE_SLICE at once, the rest one slice a task
   * after, each widening what it must. A 5000-row list is twenty short tasks, not one of ~70 ms in
   * the frame that switches to it; a figure wider than its column meanwhile is shown shorter,
   * inside its cell, until its slice is measured. A newer measure drops the older one's slices.
   * A list measured whole before starts from what it needed then, and measures nothing in the
   * frame.
   */
  private recompute(growOnly = false, list?: object): void {
    const run = ++this.runs
    const columns = this.columns
    const figures = columns.filter(isFigure)
    const need = new Map(figures.map((c) => [c.id, headerCh(c.label)]))
    const seen = list === undefined ? undefined : this.known.get(list)
    let rows: FigureRow[] | null = null
    let done = 0
    const slice = (): boolean => {
      rows ??= [...this.rows()]
      const end = Math.min(rows.length, done + MEASURE_SLICE)
      for (; done < end; done++) widen(need, figures, rows[done] as FigureRow)
      if (done < rows.length) return false
      if (list !== undefined) this.known.set(list, { columns, need: new Map(need) })
      return true
    }
    const more = (): void => {
      if (run !== this.runs) return
      const whole = slice()
      untrack(() => this.apply(figures, need, true))
      if (!whole) this.later(more)
    }
    if (seen !== undefined && seen.columns === columns) {
      // Measured whole before: those widths now, every row again after the frame.
      this.apply(figures, new Map(seen.need), growOnly)
      this.later(more)
      return
    }
    const whole = slice()
    this.apply(figures, need, growOnly)
    if (!whole) this.later(more)
  }

  private apply(figures: ColumnDef[], need: Map<GridColumn, number>, growOnly: boolean): void {
    const widths: Partial<Record<GridColumn, number>> = {}
    let changed = false
    for (const col of figures) {
      let w = columnWidthCh(need.get(col.id) ?? 0, CAP_CH[col.kind])
      if (growOnly) w = Math.max(w, this.ch[col.id] ?? 0)
      widths[col.id] = w
      const b = this.budgetOf(col.id)
      if (b.ch !== w) {
        b.ch = w
        changed = true
      }
      if (this.ch[col.id] !== w) changed = true
    }
    if (!changed && Object.keys(this.ch).length === figures.length) return
    this.ch = widths
    this.version++
  }
}

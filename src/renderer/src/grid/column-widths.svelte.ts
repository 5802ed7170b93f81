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

/**
 * How long a list's measured widths are taken as they are when it is shown again. Measuring 5000
 * rows again is ~100 ms of the main thread in slices, which a trader flicking between tabs would
 * pay on every click; columns narrow (prices fell) at most this late.
 */
export const REMEASURE_MS = 60_000

/** Lists whose widths are remembered (a trader's tabs; the oldest is forgotten first). */
const LISTS_KNOWN = 16

/**
 * One list's widths: what its rows needed, and a measure under way. A measure cut short by a
 * switch to another list goes on where it stopped when the list is shown again: a 5000-row list
 * flicked to and from faster than its twenty idle slices would otherwise never be measured whole.
 */
interface ListWidths {
  readonly symbols: readonly string[]
  readonly columns: readonly ColumnDef[]
  /** What the list shows: the last whole measure's needs, widened by what one since has read. */
  shown: Map<GridColumn, number>
  /** The measure under way: the rows before `done` read into `need`; null when none is. */
  under: { need: Map<GridColumn, number>; done: number } | null
  /** When a measure last finished whole (the widths' clock); null before the first. */
  at: number | null
}

/** A cheap first look; sameKeys settles it. */
const listKey = (list: readonly string[]): string =>
  `${list.length}|${list[0] ?? ''}|${list[list.length - 1] ?? ''}`

export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

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
  /** The list measured last, when the caller named it. */
  private list: readonly string[] | undefined
  /**
   * The widths of each list shown, by its symbols and the columns: shown again, it gets them in
   * the switch's frame, and is measured again (in idle slices) only when its last whole measure
   * is REMEASURE_MS old. Keyed by content, not by array: the host sends a list anew with every
   * change of the active one.
   */
  private readonly known = new Map<string, ListWidths>()

  constructor(
    /** The clock that says how old a list's known widths are (AppState.currentTime). */
    private readonly now: () => number,
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
  measure(
    columns: readonly ColumnDef[],
    rows: () => Iterable<FigureRow>,
    list?: readonly string[],
  ): void {
    this.columns = columns
    this.rows = rows
    this.list = list
    untrack(() => this.recompute(false))
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
   * inside its cell, until its slice is measured. A newer measure stops the older one's slices
   * (a list's own goes on when it is shown again). A list measured before starts from what it
   * needed then and measures nothing in the frame; nothing at all when its last whole measure is
   * within REMEASURE_MS (a figure that outgrew its column since asks for a measure, `over`).
   */
  private recompute(growOnly = false): void {
    const run = ++this.runs
    const figures = this.columns.filter(isFigure)
    const headers = (): Map<GridColumn, number> =>
      new Map(figures.map((c) => [c.id, headerCh(c.label)]))
    const m = this.widthsOf(this.list, headers)
    const fresh = m.at !== null && this.now() - m.at < REMEASURE_MS
    if (!growOnly && m.under === null && fresh) {
      this.apply(figures, m.shown, false)
      return
    }
    if (growOnly || m.under === null) m.under = { need: headers(), done: 0 }
    const under = m.under
    let rows: FigureRow[] | null = null
    const slice = (): boolean => {
      rows ??= [...this.rows()]
      const end = Math.min(rows.length, under.done + MEASURE_SLICE)
      for (; under.done < end; under.done++)
        widen(under.need, figures, rows[under.done] as FigureRow)
      for (const [id, w] of under.need) if (w > (m.shown.get(id) ?? 0)) m.shown.set(id, w)
      if (under.done < rows.length) return false
      m.shown = new Map(under.need)
      m.at = this.now()
      m.under = null
      return true
    }
    const more = (): void => {
      if (run !== this.runs) return
      const whole = slice()
      untrack(() => this.apply(figures, m.shown, true))
      if (!whole) this.later(more)
    }
    // Never measured: the rows in view (the list's first) for the frame that shows it. Measured
    // before, whole or in part: what it needed then, now, and the rest after the frame.
    const whole = m.at === null && under.done === 0 && slice()
    this.apply(figures, m.shown, growOnly)
    if (!whole) this.later(more)
  }

  /** The list's widths, kept when the caller named the list; a new one starts at its headers. */
  private widthsOf(
    list: readonly string[] | undefined,
    headers: () => Map<GridColumn, number>,
  ): ListWidths {
    const columns = this.columns
    const make = (symbols: readonly string[]): ListWidths => ({
      symbols,
      columns,
      shown: headers(),
      under: null,
      at: null,
    })
    if (list === undefined) return make([])
    const key = listKey(list)
    const seen = this.known.get(key)
    if (
      seen !== undefined &&
      seen.columns === columns &&
      (seen.symbols === list || sameKeys(seen.symbols, list))
    )
      return seen
    const m = make(list)
    this.known.delete(key)
    if (this.known.size === LISTS_KNOWN) this.known.delete(this.known.keys().next().value as string)
    this.known.set(key, m)
    return m
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

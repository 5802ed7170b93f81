import { untrack } from 'svelte'
import { parseSymbolKey, type Market } from '../../../shared/markets/market'
import {
  QUOTE_FIGURES,
  type Quote,
  type QuoteFigure,
  type QuotePatch,
  type QuoteSource,
  type SymbolStatus,
  type SymbolStatusCode,
} from '../../../shared/quote'
import { SparkSeries } from '../grid/sparkline'
import type { Paintable } from '../grid/row-visibility'
import type { Flash, RowCell, TrendCell } from '../grid/row-cell'
import { ALL_FIELDS, type FieldMask, type GridFields, type PriceValues } from './price-fields'

/**
 * Per-symbol state. Views that read fields reactively (the strip, the detail header) get each
 * displayed field as its own $state, so a tick that changes only `last` re-renders only what reads
 * it. The grid binds its cells instead (row-cell.ts) and the row writes them directly: at 10k
 * ticks/s over 200 rows, the watchlist array itself is never rebuilt (keyed rows stay mounted;
 * patches are applied in place).
 */
export type { Flash } from '../grid/row-cell'

export const FLASH_MS = 600

export class RowState implements Paintable {
  readonly key: string
  readonly market: Market
  readonly symbol: string
  last = $state<number | null>(null)
  change = $state<number | null>(null)
  changePercent = $state<number | null>(null)
  open = $state<number | null>(null)
  high = $state<number | null>(null)
  low = $state<number | null>(null)
  prevClose = $state<number | null>(null)
  volume = $state<number | null>(null)
  quoteVolume = $state<number | null>(null)
  trades = $state<number | null>(null)
  bid = $state<number | null>(null)
  ask = $state<number | null>(null)
  bidSize = $state<number | null>(null)
  askSize = $state<number | null>(null)
  /**
   * Epoch ms of the newest value. Deliberately not reactive: it changes on every tick, and what
   * shows it (ages, titles) refreshes with the once-a-second clock instead (no per-tick work for
   * texts that change per second).
   */
  ts = 0
  /**
   * Epoch ms of the last change of `last` (the quote's time, else the arrival): whether the market
   * is trading outside its listed hours (shared/markets/trading-hours.ts). Not reactive, like ts.
   */
  movedAt = 0
  /** Whether any timed value arrived (flips once); the reactive stand-in for `ts > 0`. */
  hasTime = $state(false)
  source = $state<QuoteSource | null>(null)
  stale = $state(false)
  /**
   * `last` is the mid of bid and ask (the service sends no last for this symbol): every view of
   * the price marks it. Changes once, not per tick.
   */
  lastIsMid = $state(false)
  statusCode = $state<SymbolStatusCode | null>(null)
  statusMessage = $state('')
  flash = $state<Flash>(null)
  /** A point was added since the last sparkline pass. */
  sparkMoved = false
  readonly spark = new SparkSeries()
  flashUntil = 0
  /**
   * The newest price values, always current, in plain fields: a row out of view (RowVisibility)
   * updates only these, and show() copies them into the $state fields the cells read.
   */
  private readonly latest: PriceValues = {
    last: null,
    change: null,
    changePercent: null,
    open: null,
    high: null,
    low: null,
    prevClose: null,
    volume: null,
    quoteVolume: null,
    trades: null,
    bid: null,
    ask: null,
    bidSize: null,
    askSize: null,
  }
  private inView = true
  /** Views other than the table that show this row live (the detail view): every field. */
  private watchers = 0
  /** The table's own selected row, kept painting while scrolled out: the grid's fields. */
  private gridWatchers = 0
  /** The sparkline gained points while the row was out of view. */
  sparkHeld = false
  /* eslint-disable svelte/prefer-svelte-reactivity -- bookkeeping of bound cells: nothing reacts to them, they are written directly. */
  /** The grid's cells of this row now in the DOM, written by apply(). */
  private readonly cells = new Set<RowCell>()
  private readonly trendCells = new Set<TrendCell>()
  /* eslint-enable svelte/prefer-svelte-reactivity */

  /** `grid`: the fields the table shows (all of them when omitted: the strip, tests). */
  constructor(
    key: string,
    private readonly grid: GridFields = { mask: ALL_FIELDS, trend: true },
  ) {
    this.key = key
    const ref = parseSymbolKey(key)
    this.market = ref?.market ?? 'crypto'
    this.symbol = ref?.symbol ?? key
  }

  /** Whether ticks are written to the $state fields (and so to the DOM) now. */
  get painting(): boolean {
    return this.inView || this.watchers > 0 || this.gridWatchers > 0
  }

  /** Whether the sparkline is redrawn as points arrive (otherwise they are held, sparkHeld). */
  get paintsTrend(): boolean {
    return this.grid.trend && this.painting
  }

  /**
   * The fields shown now: none out of view, the grid's columns in view, all of them while another
   * view (the detail header) shows the row.
   */
  get paintMask(): FieldMask {
    if (this.watchers > 0) return ALL_FIELDS
    return this.inView || this.gridWatchers > 0 ? this.grid.mask : 0
  }

  /** The fields written to $state: the painted ones, but not for a grid that binds its cells. */
  private get stateMask(): FieldMask {
    if (this.watchers > 0) return ALL_FIELDS
    return this.grid.direct === true ? 0 : this.paintMask
  }

  /** Binds a grid cell while it is in the DOM: rendered now and on every change it reads. */
  bindCell(cell: RowCell): () => void {
    this.cells.add(cell)
    cell.render(this.latest)
    // Read untracked: the binding attachment must not re-run when the flash changes.
    if (cell.flashes) cell.flash(untrack(() => this.flash))
    return () => this.cells.delete(cell)
  }

  /** Binds a sparkline while it is in the DOM: drawn now and with every sparkline pass. */
  bindTrend(cell: TrendCell): () => void {
    this.trendCells.add(cell)
    cell.draw()
    return () => this.trendCells.delete(cell)
  }

  /** The price move shown on the Last cell (QuoteBook starts and ends it). */
  setFlash(direction: Flash): void {
    if (this.flash === direction) return
    this.flash = direction
    for (const cell of this.cells) if (cell.flashes) cell.flash(direction)
  }

  /** The series gained points: every view of the line draws it again. */
  redrawTrend(): void {
    for (const cell of this.trendCells) cell.draw()
  }

  /** The newest values, painted or not (column widths measure hidden rows too); read only. */
  get newest(): Readonly<PriceValues> {
    return this.latest
  }

  /** The newest value of a price field, painted or not (sorting must see hidden rows too). */
  value(field: QuoteFigure): number | null {
    return this.latest[field]
  }

  show(): void {
    this.inView = true
    this.catchUp()
  }

  hide(): void {
    this.inView = false
  }

  /**
   * Keeps the row painting while a view shows it out of the table's window; returns the release.
   * `grid`: only the grid's columns are wanted (the selected row); otherwise every field.
   */
  watch(fields: 'all' | 'grid' = 'all'): () => void {
    const counter = fields === 'all' ? 'watchers' : 'gridWatchers'
    this[counter]++
    this.catchUp()
    let released = false
    return () => {
      if (released) return
      released = true
      this[counter]--
    }
  }

  /** Brings the painted $state fields up to the newest values (the grid's columns changed too). */
  catchUp(): void {
    const mask = this.stateMask
    for (let f = 0; f < QUOTE_FIGURES.length; f++) {
      if ((mask & (1 << f)) === 0) continue
      const field = QUOTE_FIGURES[f] as QuoteFigure
      const v = this.latest[field]
      if (this[field] !== v) this[field] = v
    }
    // Bound cells write only what differs from what they show.
    for (const cell of this.cells) cell.render(this.latest)
    if (this.sparkHeld && this.paintsTrend) {
      this.sparkHeld = false
      this.redrawTrend()
    }
  }

  /** Applies changed fields; returns the price direction when `last` moved (for the flash). */
  apply(patch: QuotePatch | Quote, now: number): Flash {
    let direction: Flash = null
    const prev = this.latest.last
    const paint = this.stateMask
    const latest = this.latest
    let changed: FieldMask = 0
    for (let f = 0; f < QUOTE_FIGURES.length; f++) {
      const field = QUOTE_FIGURES[f] as QuoteFigure
      const v = patch[field]
      if (v === undefined || v === latest[field]) continue
      latest[field] = v
      changed |= 1 << f
      if ((paint & (1 << f)) !== 0 && this[field] !== v) this[field] = v
    }
    // A row out of view (a hidden spare row of the table still has its cells bound) writes
    // nothing: catchUp() renders its cells when it is shown again.
    if (changed !== 0 && this.painting)
      for (const cell of this.cells) if ((cell.reads & changed) !== 0) cell.render(latest)
    if (patch.ts !== undefined) {
      this.ts = patch.ts
      if (!this.hasTime && patch.ts > 0) this.hasTime = true
    }
    if (patch.source !== undefined) this.source = patch.source
    if (patch.stale !== undefined) this.stale = patch.stale
    if (patch.lastIsMid !== undefined && patch.lastIsMid !== this.lastIsMid)
      this.lastIsMid = patch.lastIsMid
    const next = latest.last
    if (patch.last !== undefined && next !== null) {
      if (prev !== null && next !== prev) {
        direction = next > prev ? 'up' : 'down'
        this.movedAt = this.ts > 0 ? this.ts : now
      }
      if (this.spark.push(next, now)) this.sparkMoved = true
    }
    return direction
  }

  applyStatus(status: SymbolStatus | null): void {
    const code = status === null || status.code === 'OK' ? null : status.code
    if (this.statusCode !== code) this.statusCode = code
    const message = status?.message ?? ''
    if (this.statusMessage !== message) this.statusMessage = message
  }
}

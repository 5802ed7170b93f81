import type { Market } from '../../../shared/markets/market'
import { fieldMask, type FieldMask, type PriceValues } from '../state/price-fields'
import type { Flash, RowCell, TrendCell } from './row-cell'
import type { SparkSeries } from './sparkline'
import { sparkPoints } from './sparkline'
import { cellText, tone } from './cell-text'
import { midText } from '../lib/format'
import type { ColumnDef } from './columns'
import type { FitBudget } from './fit-number'

/**
 * The DOM side of the grid's ticking cells (row-cell.ts): each keeps what it last wrote and
 * touches the DOM only when the text, tone or flash actually changes.
 */
export class FigureCell implements RowCell {
  reads: FieldMask
  /** Only the Last column flashes. */
  flashes: boolean
  private readonly text: Text
  private written: string | null = null
  private toned: '' | 'up' | 'down' = ''
  private flashed: Flash = null

  /** `cell`: the <td>; its first element child is the box the text goes in. */
  constructor(
    private readonly cell: HTMLElement,
    private col: ColumnDef,
    private market: Market,
    private symbol: string,
    private budget: FitBudget,
  ) {
    this.reads = fieldMask(col.reads)
    this.flashes = col.id === 'last'
    this.text = cell.ownerDocument.createTextNode('')
    ;(cell.firstElementChild ?? cell).replaceChildren(this.text)
  }

  /**
   * The same <td> for another symbol or width (a row rebound by a sort or a switch): what is on
   * screen is still known, so the next render writes only what differs, and the tone or flash of
   * the symbol before never stays behind.
   */
  retarget(col: ColumnDef, market: Market, symbol: string, budget: FitBudget): void {
    if (col !== this.col) {
      this.col = col
      this.reads = fieldMask(col.reads)
      this.flashes = col.id === 'last'
      if (!this.flashes) this.flash(null)
    }
    this.market = market
    this.symbol = symbol
    this.budget = budget
  }

  render(values: Readonly<PriceValues>): void {
    const text = cellText(this.col, values, this.market, this.symbol, this.budget)
    if (text !== this.written) {
      this.written = text
      this.text.nodeValue = text
    }
    const next = tone(this.col, values)
    if (next !== this.toned) {
      if (this.toned !== '') this.cell.classList.remove(this.toned)
      if (next !== '') this.cell.classList.add(next)
      this.toned = next
    }
  }

  flash(direction: Flash): void {
    if (direction === this.flashed) return
    if (this.flashed !== null) this.cell.classList.remove(`flash-${this.flashed}`)
    if (direction !== null) this.cell.classList.add(`flash-${direction}`)
    this.flashed = direction
  }
}

/**
 * The "mid" mark of a Last cell whose price is the mid of bid and ask: its title and its
 * screen-reader text name the bid and ask it was taken from, rewritten as they move.
 */
export class MidMarkCell implements RowCell {
  readonly reads = fieldMask(['bid', 'ask'])
  readonly flashes = false
  private written = ''

  /** `mark`: the mark's element; `spoken`: its text node read by screen readers. */
  constructor(
    private readonly mark: HTMLElement,
    private readonly spoken: HTMLElement,
    private readonly market: Market,
    private readonly symbol: string,
  ) {}

  render(values: Readonly<PriceValues>): void {
    const text = midText(values.bid, values.ask, this.market, this.symbol)
    if (text === this.written) return
    this.written = text
    this.mark.title = text
    this.spoken.textContent = `, ${text}`
  }

  flash(): void {}
}

const figureCells = new WeakMap<HTMLElement, FigureCell>()

/** The one FigureCell of a <td> for its whole life, pointed at the row it shows now. */
export function figureCellOf(
  td: HTMLElement,
  col: ColumnDef,
  market: Market,
  symbol: string,
  budget: FitBudget,
): FigureCell {
  let cell = figureCells.get(td)
  if (cell === undefined) {
    cell = new FigureCell(td, col, market, symbol, budget)
    figureCells.set(td, cell)
  } else cell.retarget(col, market, symbol, budget)
  return cell
}

/**
 * A sparkline's <polyline>, its points rewritten only when the series changed since the last
 * draw. The version is kept, not the points text: a string held for seconds outlives the young
 * generation and leaves old-generation garbage for full collections.
 */
export class SparkCell implements TrendCell {
  private drawn = -1

  constructor(
    private readonly line: SVGPolylineElement,
    private readonly series: SparkSeries,
    private readonly width: number,
    private readonly height: number,
  ) {}

  draw(): void {
    if (this.series.version === this.drawn) return
    this.drawn = this.series.version
    this.line.setAttribute('points', sparkPoints(this.series, this.width, this.height))
  }
}

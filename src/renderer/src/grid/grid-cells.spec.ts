import { afterEach, describe, expect, it } from 'vitest'
import { QuoteBook } from '../state/quote-book.svelte'
import { fieldMask } from '../state/price-fields'
import { COLUMN_DEFS } from './columns'
import { FigureCell, SparkCell } from './grid-cells'
import { SPARK_MAX_STEP_MS, sparkPoints } from './sparkline'
import { NO_BUDGET } from './fit-number'
import { formatChange, formatPrice } from '../../../shared/figures/figure-text'

const KEY = 'crypto:BTCUSDT'

/** A book in direct mode (as the grid runs it), with a clock the test moves. */
function directBook(): { book: QuoteBook; clock: { now: number } } {
  const clock = { now: 0 }
  const book = new QuoteBook({ now: () => clock.now, setTimer: () => undefined })
  book.setGridFields(fieldMask(['last', 'change', 'volume']), true, true)
  return { book, clock }
}

/** A <td><span class="v"></span></td> in the document, and every DOM change made under it. */
function cellElement(): { td: HTMLElement; writes: () => MutationRecord[] } {
  const td = document.createElement('td')
  td.className = 'num'
  td.append(document.createElement('span'))
  document.body.append(td)
  const observer = new MutationObserver(() => undefined)
  observer.observe(td, { subtree: true, characterData: true, childList: true, attributes: true })
  return { td, writes: () => observer.takeRecords() }
}

afterEach(() => document.body.replaceChildren())

describe('grid cells written by the row (outside Svelte)', () => {
  it('render at once when bound, then only when a field they read changes', () => {
    const { book } = directBook()
    const row = book.row(KEY)
    book.applyPatches([{ key: KEY, last: 100, volume: 5 }])
    const { td, writes } = cellElement()
    row.bindCell(new FigureCell(td, COLUMN_DEFS.last, row.market, row.symbol, NO_BUDGET))
    expect(td.textContent).toBe(formatPrice(100, row.market, row.symbol))
    writes()
    book.applyPatches([{ key: KEY, volume: 6 }])
    expect(writes()).toHaveLength(0)
    book.applyPatches([{ key: KEY, last: 100 }])
    expect(writes()).toHaveLength(0)
    book.applyPatches([{ key: KEY, last: 101.5 }])
    expect(td.textContent).toBe(formatPrice(101.5, row.market, row.symbol))
    expect(writes().filter((m) => m.type === 'characterData')).toHaveLength(1)
  })

  it('write nothing while their row is out of view (a hidden spare row), and catch up when shown', () => {
    const { book } = directBook()
    const row = book.row(KEY)
    book.applyPatches([{ key: KEY, last: 100 }])
    const { td, writes } = cellElement()
    row.bindCell(new FigureCell(td, COLUMN_DEFS.last, row.market, row.symbol, NO_BUDGET))
    writes()
    book.visibility.update([{ key: KEY, inView: false }])
    book.applyPatches([{ key: KEY, last: 101 }])
    book.applyPatches([{ key: KEY, last: 102 }])
    expect(writes()).toHaveLength(0)
    book.visibility.update([{ key: KEY, inView: true }])
    expect(td.textContent).toBe(formatPrice(102, row.market, row.symbol))
  })

  it('write no $state field for the grid in direct mode, yet a watching view still gets them', () => {
    const { book } = directBook()
    const row = book.row(KEY)
    book.applyPatches([{ key: KEY, last: 100 }])
    expect(row.last).toBeNull()
    expect(row.value('last')).toBe(100)
    const release = row.watch()
    expect(row.last).toBe(100)
    book.applyPatches([{ key: KEY, last: 102 }])
    expect(row.last).toBe(102)
    release()
  })

  it('catch the $state fields up when the grid leaves direct mode', () => {
    const { book } = directBook()
    book.applyPatches([{ key: KEY, last: 100 }])
    book.setGridFields(fieldMask(['last']), true, false)
    expect(book.row(KEY).last).toBe(100)
  })

  it('colour a change by its sign, and stop writing once unbound', () => {
    const { book } = directBook()
    const row = book.row(KEY)
    const { td } = cellElement()
    const unbind = row.bindCell(
      new FigureCell(td, COLUMN_DEFS.change, row.market, row.symbol, NO_BUDGET),
    )
    book.applyPatches([{ key: KEY, last: 100, change: 1.25 }])
    expect(td.classList.contains('up')).toBe(true)
    book.applyPatches([{ key: KEY, change: -0.5 }])
    expect([...td.classList].sort()).toEqual(['down', 'num'])
    unbind()
    book.applyPatches([{ key: KEY, change: 0.75 }])
    expect(td.classList.contains('down')).toBe(true)
  })

  it('flash the Last cell on a move, keep it through further moves the same way, end it when due', () => {
    const { book, clock } = directBook()
    const row = book.row(KEY)
    const { td, writes } = cellElement()
    row.bindCell(new FigureCell(td, COLUMN_DEFS.last, row.market, row.symbol, NO_BUDGET))
    book.applyPatches([{ key: KEY, last: 100 }])
    clock.now = 1000
    book.applyPatches([{ key: KEY, last: 101 }])
    expect(td.classList.contains('flash-up')).toBe(true)
    writes()
    // Due by now, but moving up again: the class stays, with no write off and on.
    clock.now = 2000
    book.applyPatches([{ key: KEY, last: 102 }])
    expect(writes().filter((m) => m.type === 'attributes')).toHaveLength(0)
    clock.now = 3000
    book.applyPatches([{ key: KEY, last: 101 }])
    expect(td.classList.contains('flash-down')).toBe(true)
    expect(td.classList.contains('flash-up')).toBe(false)
    clock.now = 4000
    book.applyPatches([{ key: KEY, volume: 1 }])
    expect(td.className).toBe('num')
  })

  it('show the flash already running on a cell bound mid-flash (a row scrolled in)', () => {
    const { book, clock } = directBook()
    const row = book.row(KEY)
    book.applyPatches([{ key: KEY, last: 100 }])
    clock.now = 1000
    book.applyPatches([{ key: KEY, last: 99 }])
    const { td } = cellElement()
    row.bindCell(new FigureCell(td, COLUMN_DEFS.last, row.market, row.symbol, NO_BUDGET))
    expect(td.classList.contains('flash-down')).toBe(true)
  })
})

describe('the Spread cell', () => {
  it('shows ask − bid and its bps of the mid, "—" without a bid or an ask', () => {
    const { book } = directBook()
    const row = book.row(KEY)
    const { td } = cellElement()
    row.bindCell(new FigureCell(td, COLUMN_DEFS.spread, row.market, row.symbol, NO_BUDGET))
    expect(td.textContent).toBe('—')
    book.applyPatches([{ key: KEY, bid: 99.5 }])
    expect(td.textContent).toBe('—')
    book.applyPatches([{ key: KEY, ask: 100.5 }])
    // At the precision the Ask column shows.
    expect(td.textContent).toBe(
      `${formatChange(1, row.market, row.symbol, 100.5).slice(1)} · 100.0 bp`,
    )
  })

  it('is rewritten by a new bid or ask only, and shows the bps alone where it does not fit', () => {
    const { book } = directBook()
    const row = book.row(KEY)
    book.applyPatches([{ key: KEY, bid: 99.5, ask: 100.5, last: 100 }])
    const { td, writes } = cellElement()
    let over = 0
    const narrow = { ch: 7, onOver: () => over++ }
    row.bindCell(new FigureCell(td, COLUMN_DEFS.spread, row.market, row.symbol, narrow))
    expect(td.textContent).toBe('100.0 bp')
    expect(over).toBe(1)
    writes()
    book.applyPatches([{ key: KEY, last: 100.2, volume: 9 }])
    expect(writes()).toHaveLength(0)
    book.applyPatches([{ key: KEY, ask: 99.7 }])
    expect(td.textContent).toBe('20.1 bp')
  })

  it('costs a tick nothing while hidden: no field of it is painted', () => {
    expect(fieldMask(COLUMN_DEFS.spread.reads)).toBe(fieldMask(['bid', 'ask']))
    const { book } = directBook()
    const row = book.row(KEY)
    book.applyPatches([{ key: KEY, bid: 1, ask: 2 }])
    expect(row.bid).toBeNull()
    expect(row.ask).toBeNull()
  })
})

describe('sparklines drawn by the row', () => {
  it('draw from the series in place, the same line as from a copy, and skip an unchanged redraw', () => {
    const { book, clock } = directBook()
    const row = book.row(KEY)
    for (let i = 0; i < 60; i++) {
      clock.now = i * SPARK_MAX_STEP_MS
      book.applyPatches([{ key: KEY, last: 100 + (i % 7) }])
    }
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline')
    document.body.append(line)
    const observer = new MutationObserver(() => undefined)
    observer.observe(line, { attributes: true })
    const cell = new SparkCell(line, row.spark, 80, 20)
    row.bindTrend(cell)
    expect(row.spark.length).toBe(60)
    expect(line.getAttribute('points')).toBe(sparkPoints(row.spark.toArray(), 80, 20))
    expect(line.getAttribute('points')?.split(' ')).toHaveLength(60)
    observer.takeRecords()
    cell.draw()
    expect(observer.takeRecords()).toHaveLength(0)
  })

  it('scale a flat series to the middle and need two points for a line', () => {
    expect(sparkPoints([5], 80, 20)).toBe('')
    expect(sparkPoints([5, 5, 5], 80, 20)).toBe('0.0,10.0 40.0,10.0 80.0,10.0')
    expect(sparkPoints([1, 3], 10, 20)).toBe('0.0,20.0 10.0,0.0')
  })
})

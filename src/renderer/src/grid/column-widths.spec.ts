import { describe, expect, it } from 'vitest'
import { columnDefs } from './columns'
import { textCh } from './fit-number'
import {
  ColumnWidths,
  headerCh,
  MEASURE_SLICE,
  REMEASURE_MS,
  type FigureRow,
} from './column-widths.svelte'
import { RowState } from '../state/row-state.svelte'

function rowWith(key: string, last: number): RowState {
  const row = new RowState(key)
  row.apply({ key, last, volume: 1234 }, 0)
  return row
}

/** A hand-run scheduler: width changes asked for by a cell land when the test says. */
function setup(rows: FigureRow[]): {
  widths: ColumnWidths
  run: () => void
  pending: () => number
} {
  const queued: Array<() => void> = []
  const widths = new ColumnWidths(
    () => 0,
    (fn) => queued.push(fn),
  )
  widths.measure(columnDefs(['last', 'volume', 'trend']), () => rows)
  return {
    widths,
    run: () => queued.splice(0).forEach((fn) => fn()),
    pending: () => queued.length,
  }
}

/** The widths' clock, moved by the tests that care how old a measure is. */
let clock = 0

/** Widths whose idle slices queue until the spec runs them (`idle`: all, counted). */
function sliced(): { widths: ColumnWidths; slices: Array<() => void>; idle: () => number } {
  const slices: Array<() => void> = []
  const widths = new ColumnWidths(
    () => clock,
    () => undefined,
    (fn) => slices.push(fn),
  )
  const idle = (): number => {
    let tasks = 0
    for (; slices.length > 0; tasks++) slices.shift()?.()
    return tasks
  }
  return { widths, slices, idle }
}

/** `n` rows at 1.5, the last at 20,000,000: wider than any slice before it measures. */
function longList(n: number): RowState[] {
  const rows = Array.from({ length: n }, (_, i) => rowWith(`crypto:Z${i}USDT`, 1.5))
  rows[n - 1]?.apply({ key: `crypto:Z${n - 1}USDT`, last: 20_000_000 }, 1)
  return rows
}

describe('ColumnWidths', () => {
  it('makes a figure column as wide as its widest figure, or its header', () => {
    const { widths } = setup([rowWith('crypto:AUSDT', 20_000_000), rowWith('crypto:BUSDT', 1.5)])
    expect(widths.ch.last).toBeGreaterThanOrEqual(textCh('20,000,000.00'))
    expect(widths.ch.volume).toBeGreaterThanOrEqual(headerCh('Vol'))
    expect(widths.ch.trend).toBeUndefined()
  })

  it('grows a column when a figure stops fitting, once, after the frame that asked', () => {
    const rows = [rowWith('crypto:AUSDT', 100)]
    const { widths, run, pending } = setup(rows)
    const before = widths.ch.last ?? 0
    rows[0]?.apply({ key: 'crypto:AUSDT', last: 123_456_789.12 }, 1)
    const budget = widths.budget('last')
    budget.onOver()
    budget.onOver()
    expect(pending()).toBe(1)
    expect(widths.ch.last).toBe(before)
    run()
    expect(widths.ch.last).toBeGreaterThanOrEqual(textCh('123,456,789.12'))
  })

  it('stops at the cap: a figure past it is shortened and asks for nothing more', () => {
    const rows = [rowWith('crypto:AUSDT', 1e15)]
    const { widths, pending } = setup(rows)
    expect(widths.ch.last).toBe(14)
    widths.budget('last').onOver()
    expect(pending()).toBe(0)
  })

  it('measures a long list in slices, the widest figure past the first slice included', () => {
    const rows = longList(5000)
    const { widths, idle } = sliced()
    widths.measure(columnDefs(['last']), () => rows)
    const first = widths.ch.last ?? 0
    expect(first).toBeLessThan(textCh('20,000,000.00'))
    expect(idle()).toBe(5000 / MEASURE_SLICE - 1)
    expect(widths.ch.last).toBeGreaterThanOrEqual(textCh('20,000,000.00'))
  })

  it('drops the slices of a list it no longer shows', () => {
    const long = longList(2000)
    const { widths, idle } = sliced()
    widths.measure(columnDefs(['last']), () => long)
    widths.measure(columnDefs(['last']), () => [rowWith('crypto:AUSDT', 1.5)])
    const short = widths.ch.last
    idle()
    expect(widths.ch.last).toBe(short)
  })

  it('gives a list measured whole before its widths at once, measuring it again only once old', () => {
    clock = 0
    const long = longList(2000)
    const list = long.map((r) => r.key)
    const { widths, slices, idle } = sliced()
    const columns = columnDefs(['last'])
    let read = 0
    const rows = (): RowState[] => {
      read++
      return long
    }
    widths.measure(columns, rows, list)
    idle()
    const wide = widths.ch.last ?? 0
    expect(wide).toBeGreaterThanOrEqual(textCh('20,000,000.00'))
    const showSmall = (): void =>
      widths.measure(columns, () => [rowWith('crypto:AUSDT', 1.5)], ['crypto:AUSDT'])
    showSmall()
    expect(widths.ch.last).toBeLessThan(wide)
    // Shown again, as the host sends it: a new array with the same symbols.
    read = 0
    clock = REMEASURE_MS - 1
    widths.measure(columns, rows, [...list])
    expect(widths.ch.last).toBe(wide)
    expect(slices).toHaveLength(0)
    expect(read).toBe(0)
    // Older than REMEASURE_MS: the widths at once, every row again after the frame.
    showSmall()
    clock = REMEASURE_MS
    widths.measure(columns, rows, [...list])
    expect(widths.ch.last).toBe(wide)
    expect(read).toBe(0)
    long[5]?.apply({ key: 'crypto:Z5USDT', last: 123_456_789.12 }, 2)
    idle()
    expect(read).toBe(1)
    expect(widths.ch.last).toBeGreaterThanOrEqual(textCh('123,456,789.12'))
  })

  it('goes on with a measure cut short by a switch where it stopped, when the list is back', () => {
    clock = 0
    const long = longList(2000)
    const list = long.map((r) => r.key)
    const { widths, slices, idle } = sliced()
    const columns = columnDefs(['last'])
    const rows = (): RowState[] => long
    const wholeSlices = 2000 / MEASURE_SLICE
    // Shown, two slices measured (the frame's and one idle one), then another list.
    widths.measure(columns, rows, list)
    slices.shift()?.()
    widths.measure(columns, () => [rowWith('crypto:AUSDT', 1.5)], ['crypto:AUSDT'])
    expect(slices).toHaveLength(1)
    slices.shift()?.()
    // Back: nothing measured in the frame, the rest after it, one slice at a time.
    widths.measure(columns, rows, [...list])
    expect(idle()).toBe(wholeSlices - 2)
    expect(widths.ch.last).toBeGreaterThanOrEqual(textCh('20,000,000.00'))
  })

  it('does not take another list with the same ends and length for one it knows', () => {
    clock = 0
    const { widths } = sliced()
    const columns = columnDefs(['last'])
    const a = [
      rowWith('crypto:AUSDT', 1.5),
      rowWith('crypto:BUSDT', 1.5),
      rowWith('crypto:CUSDT', 1.5),
    ]
    widths.measure(
      columns,
      () => a,
      a.map((r) => r.key),
    )
    const narrow = widths.ch.last ?? 0
    const b = [a[0], rowWith('crypto:DUSDT', 20_000_000), a[2]] as RowState[]
    widths.measure(
      columns,
      () => b,
      b.map((r) => r.key),
    )
    expect(widths.ch.last).toBeGreaterThan(narrow)
  })

  it('widens for rows added at the end without narrowing for the rest', () => {
    const rows = [rowWith('crypto:AUSDT', 20_000_000)]
    const { widths } = setup(rows)
    const wide = widths.ch.last ?? 0
    widths.grow(() => [rowWith('crypto:BUSDT', 1.5)])
    expect(widths.ch.last).toBe(wide)
    widths.grow(() => [rowWith('crypto:CUSDT', 123_456_789.12)])
    expect(widths.ch.last).toBeGreaterThanOrEqual(textCh('123,456,789.12'))
  })
})

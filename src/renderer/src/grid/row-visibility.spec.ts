import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { QuoteBook } from '../state/quote-book.svelte'
import { RowVisibility, type Paintable } from './row-visibility'

/** Counts the sparkline draws a bound trend cell sees after binding (what the trader sees redrawn). */
function trendDraws(row: { bindTrend(cell: { draw(): void }): () => void }): () => number {
  let draws = -1 // binding draws once at once
  row.bindTrend({ draw: () => draws++ })
  return () => draws
}

function recorder(): { rowOf: (key: string) => Paintable; calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    rowOf: (key) => ({
      show: () => calls.push(`show ${key}`),
      hide: () => calls.push(`hide ${key}`),
    }),
  }
}

describe('RowVisibility', () => {
  it('treats rows never measured as in view', () => {
    const v = new RowVisibility(recorder().rowOf)
    expect(v.isInView('crypto:BTCUSDT')).toBe(true)
  })

  it('hides and shows a row only when its state flips, and counts rows brought back', () => {
    const { rowOf, calls } = recorder()
    const v = new RowVisibility(rowOf)
    expect(v.update([{ key: 'a', inView: true }])).toBe(0)
    v.update([
      { key: 'a', inView: false },
      { key: 'b', inView: false },
    ])
    v.update([{ key: 'a', inView: false }])
    expect(v.update([{ key: 'a', inView: true }])).toBe(1)
    expect(calls).toEqual(['hide a', 'hide b', 'show a'])
    expect(v.hiddenCount).toBe(1)
  })

  it('uses the last report of a key within one batch', () => {
    const { rowOf, calls } = recorder()
    const v = new RowVisibility(rowOf)
    v.update([
      { key: 'a', inView: false },
      { key: 'a', inView: true },
    ])
    expect(calls).toEqual([])
    expect(v.isInView('a')).toBe(true)
  })
})

describe('RowVisibility.reportList', () => {
  const key = fc.constantFrom(...'abcdefghij'.split(''))
  const report = fc.record({
    keys: fc.uniqueArray(key, { maxLength: 10 }),
    window: fc.uniqueArray(key, { maxLength: 6 }),
    spares: fc.uniqueArray(key, { maxLength: 6 }),
  })

  it('leaves every row as update() with one entry per key (spares first) does', () => {
    fc.assert(
      fc.property(fc.array(report, { minLength: 1, maxLength: 8 }), (reports) => {
        const a = recorder()
        const b = recorder()
        const byEntries = new RowVisibility(a.rowOf)
        const byList = new RowVisibility(b.rowOf)
        for (const r of reports) {
          // The table's window is always part of its list.
          const window = new Set(r.window.filter((k) => r.keys.includes(k)))
          const shownA = byEntries.update([
            ...r.spares.map((k) => ({ key: k, inView: false })),
            ...r.keys.map((k) => ({ key: k, inView: window.has(k) })),
          ])
          const shownB = byList.reportList(r.keys, window, r.spares)
          expect(shownB).toBe(shownA)
          expect([...b.calls].sort()).toEqual([...a.calls].sort())
          a.calls.length = 0
          b.calls.length = 0
        }
        for (const k of 'abcdefghij') expect(byList.isInView(k)).toBe(byEntries.isInView(k))
      }),
      { numRuns: 500 },
    )
  })

  it('hides the list out of the window and the spares, and shows what scrolls in', () => {
    const { rowOf, calls } = recorder()
    const v = new RowVisibility(rowOf)
    v.reportList(['a', 'b', 'c'], new Set(['a']), ['x'])
    expect(calls).toEqual(['hide x', 'hide b', 'hide c'])
    expect(v.reportList(['a', 'b', 'c'], new Set(['b', 'c']))).toBe(2)
    expect(v.isInView('a')).toBe(false)
    expect(v.isInView('x')).toBe(false)
  })
})

describe('rows out of view in the QuoteBook', () => {
  const KEY = 'crypto:BTCUSDT'

  function book(): { book: QuoteBook; timers: Array<() => void>; clock: { now: number } } {
    const timers: Array<() => void> = []
    const clock = { now: 10_000 }
    const b = new QuoteBook({ now: () => clock.now, setTimer: (fn) => timers.push(fn) })
    b.load([{ key: KEY, last: 100, ts: 1 } as never], [])
    return { book: b, timers, clock }
  }

  it('hold the newest values without painting them, and show them all at once on scroll-in', () => {
    const { book: b } = book()
    const row = b.row(KEY)
    b.visibility.update([{ key: KEY, inView: false }])
    b.applyPatches([{ key: KEY, last: 101, bid: 100.5 }])
    b.applyPatches([{ key: KEY, last: 102 }])
    expect(row.last).toBe(100)
    expect(row.bid).toBeNull()
    expect(row.value('last')).toBe(102)
    expect(row.flash).toBeNull()
    b.visibility.update([{ key: KEY, inView: true }])
    expect(row.last).toBe(102)
    expect(row.bid).toBe(100.5)
  })

  it('keep collecting sparkline points and draw them when the row comes into view', () => {
    const { book: b, clock } = book()
    const row = b.row(KEY)
    b.visibility.update([{ key: KEY, inView: false }])
    const draws = trendDraws(row)
    clock.now += 5_000
    b.applyPatches([{ key: KEY, last: 105 }])
    expect(draws()).toBe(0)
    b.visibility.update([{ key: KEY, inView: true }])
    expect(draws()).toBe(1)
  })

  it('still paint while another view watches them (the detail view)', () => {
    const { book: b } = book()
    const row = b.row(KEY)
    b.visibility.update([{ key: KEY, inView: false }])
    const release = row.watch()
    b.applyPatches([{ key: KEY, last: 99 }])
    expect(row.last).toBe(99)
    expect(row.flash).toBe('down')
    release()
    b.applyPatches([{ key: KEY, last: 98 }])
    expect(row.last).toBe(99)
  })

  it('flash again once in view, on the next move', () => {
    const { book: b } = book()
    const row = b.row(KEY)
    b.visibility.update([{ key: KEY, inView: false }])
    b.applyPatches([{ key: KEY, last: 101 }])
    b.visibility.update([{ key: KEY, inView: true }])
    b.applyPatches([{ key: KEY, last: 103 }])
    expect(row.flash).toBe('up')
    expect(row.last).toBe(103)
  })
})

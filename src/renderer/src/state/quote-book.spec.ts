import { describe, expect, it } from 'vitest'
import { FakeClock, type TimerHandle } from '../../../util/clock'
import { SPARK_MAX_STEP_MS } from '../grid/sparkline'
import { fieldMask } from './price-fields'
import { FLASH_GRACE_MS, QuoteBook, SPARK_GRACE_MS, SPARK_PASS_MS } from './quote-book.svelte'
import { FLASH_MS } from './row-state.svelte'

const KEY = 'crypto:BTCUSDT'

/** Counts the sparkline draws a bound trend cell sees after binding (what the trader sees redrawn). */
function trendDraws(row: { bindTrend(cell: { draw(): void }): () => void }): () => number {
  let draws = -1 // binding draws once at once
  row.bindTrend({ draw: () => draws++ })
  return () => draws
}

/** A book whose timers and clock the test drives. */
function book(): { book: QuoteBook; clock: { now: number }; timers: Array<() => void> } {
  const clock = { now: 0 }
  const timers: Array<() => void> = []
  const b = new QuoteBook({ now: () => clock.now, setTimer: (fn) => timers.push(fn) })
  return { book: b, clock, timers }
}

describe('QuoteBook and the grid’s columns', () => {
  it('writes a hidden column’s field to no $state, yet sorts by it', () => {
    const { book: b } = book()
    b.setGridFields(fieldMask(['last']), true)
    b.applyPatches([{ key: KEY, last: 100, bidSize: 3 }])
    const row = b.row(KEY)
    expect(row.last).toBe(100)
    expect(row.bidSize).toBeNull()
    expect(row.value('bidSize')).toBe(3)
  })

  it('brings rows in view up to date at once when a column is shown again', () => {
    const { book: b } = book()
    b.setGridFields(fieldMask(['last']), true)
    b.applyPatches([{ key: KEY, last: 100, bidSize: 3 }])
    b.setGridFields(fieldMask(['last', 'bidSize']), true)
    expect(b.row(KEY).bidSize).toBe(3)
  })

  it('paints every field for a view that watches the row (the detail header), columns or not', () => {
    const { book: b } = book()
    b.setGridFields(fieldMask(['volume']), false)
    const release = b.row(KEY).watch()
    b.applyPatches([{ key: KEY, last: 100, changePercent: 1.5 }])
    expect(b.row(KEY).last).toBe(100)
    expect(b.row(KEY).changePercent).toBe(1.5)
    release()
  })

  it('keeps the selected row painting out of view, its grid’s columns only', () => {
    const { book: b } = book()
    b.setGridFields(fieldMask(['last']), true)
    b.visibility.update([{ key: KEY, inView: false }])
    const release = b.row(KEY).watch('grid')
    b.applyPatches([{ key: KEY, last: 100, bidSize: 3 }])
    expect(b.row(KEY).last).toBe(100)
    expect(b.row(KEY).bidSize).toBeNull()
    release()
    b.applyPatches([{ key: KEY, last: 101 }])
    expect(b.row(KEY).last).toBe(100)
  })

  it('does not flash a row whose grid shows no Last, and holds its sparkline without Trend', () => {
    const { book: b, clock } = book()
    b.setGridFields(fieldMask(['volume']), false)
    b.applyPatches([{ key: KEY, last: 100 }])
    clock.now = SPARK_MAX_STEP_MS
    b.applyPatches([{ key: KEY, last: 101 }])
    const row = b.row(KEY)
    const draws = trendDraws(row)
    expect(row.flash).toBeNull()
    expect(draws()).toBe(0)
    b.setGridFields(fieldMask(['volume']), true)
    expect(draws()).toBe(1)
    clock.now = 2 * SPARK_MAX_STEP_MS
    b.setGridFields(fieldMask(['last']), true)
    b.applyPatches([{ key: KEY, last: 102 }])
    expect(row.flash).toBe('up')
  })
})

describe('QuoteBook flash sweep', () => {
  /** A book on a FakeClock; `wakeups` counts the timers it fired. */
  function timedBook(): { book: QuoteBook; clock: FakeClock; wakeups: () => number } {
    const clock = new FakeClock(0)
    let fired = 0
    const b = new QuoteBook({
      now: () => clock.now(),
      setTimer: (fn, ms) =>
        clock.setTimeout(() => {
          fired++
          fn()
        }, ms),
      clearTimer: (handle) => clock.clearTimeout(handle as TimerHandle),
    })
    return { book: b, clock, wakeups: () => fired }
  }

  it('never wakes while a feed ticks once a second, and ends the last flash once it stops', () => {
    const { book: b, clock, wakeups } = timedBook()
    b.applyPatches([{ key: KEY, last: 100 }])
    let price = 100
    for (let s = 0; s < 10; s++) {
      clock.advance(1000)
      b.applyPatches([{ key: KEY, last: ++price }])
      expect(b.row(KEY).flash).toBe('up')
    }
    expect(wakeups()).toBe(0)
    expect(clock.pendingTimers()).toBe(1)
    clock.advance(FLASH_MS + FLASH_GRACE_MS)
    expect(b.row(KEY).flash).toBeNull()
    expect(clock.pendingTimers()).toBe(0)
  })

  it('draws sparklines in a once-a-second feed’s own frames, even after a pass drawn between them', () => {
    const { book: b, clock } = timedBook()
    b.setGridFields(fieldMask(['last']), true)
    let price = 100
    b.applyPatches([{ key: KEY, last: price }])
    // A snapshot arrives between two price frames and its pass is drawn at once: the next pass
    // is due a second later, off the feed's beat.
    clock.advance(860)
    b.load([], [])
    clock.advance(140)
    const sparkDraws = trendDraws(b.row(KEY))
    let drawnBetweenFrames = 0
    let drawnInFrames = 0
    for (let s = 0; s < 20; s++) {
      const before = sparkDraws()
      b.applyPatches([{ key: KEY, last: ++price }])
      if (sparkDraws() !== before) drawnInFrames++
      const drawn = sparkDraws()
      clock.advance(1000)
      if (sparkDraws() !== drawn) drawnBetweenFrames++
    }
    expect(drawnInFrames).toBeGreaterThan(0)
    expect(drawnBetweenFrames).toBe(0)
  })

  it('still draws the last point of a feed that stops, by a timer', () => {
    const { book: b, clock } = timedBook()
    b.setGridFields(fieldMask(['last']), true)
    b.applyPatches([{ key: KEY, last: 100 }])
    const draws = trendDraws(b.row(KEY))
    const first = draws()
    clock.advance(600)
    // A new point (the line samples every 500 ms at first), before the next pass is due.
    b.applyPatches([{ key: KEY, last: 101 }])
    expect(draws()).toBe(first)
    clock.advance(SPARK_PASS_MS + SPARK_GRACE_MS - 600 - 1)
    expect(draws()).toBe(first)
    clock.advance(1)
    expect(draws()).toBeGreaterThan(first)
  })

  it('ends a row’s flash in a later frame that does not move it', () => {
    const { book: b, clock } = timedBook()
    b.applyPatches([{ key: KEY, last: 100 }])
    b.applyPatches([{ key: KEY, last: 101 }])
    expect(b.row(KEY).flash).toBe('up')
    clock.advance(FLASH_MS)
    b.applyPatches([{ key: 'crypto:ETHUSDT', last: 5 }])
    expect(b.row(KEY).flash).toBeNull()
  })
})

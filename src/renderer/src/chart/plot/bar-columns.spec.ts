import { describe, expect, it } from 'vitest'
import type { Bar } from '../../../../shared/quote'
import { applyLastPrice, barsToColumns } from './bar-columns'

const H = 3_600_000
function bar(openTime: number, close: number): Bar {
  return {
    openTime,
    closeTime: openTime + H,
    open: close - 1,
    high: close + 2,
    low: close - 3,
    close,
    volume: 10,
  }
}

describe('bars to uPlot columns', () => {
  it('gives seconds on x and one array per series, sorted by time', () => {
    const cols = barsToColumns([bar(2 * H, 20), bar(H, 10)])
    expect(cols[0]).toEqual([3600, 7200])
    expect(cols[4]).toEqual([10, 20])
    expect(cols[2]).toEqual([12, 22])
    expect(cols[5]).toEqual([10, 10])
  })
  it('keeps x strictly increasing when a bar is repeated (later revision wins)', () => {
    const cols = barsToColumns([bar(H, 10), bar(H, 11)])
    expect(cols[0]).toEqual([3600])
    expect(cols[4]).toEqual([11])
  })
})

describe('live price on the last bar', () => {
  it('moves close and extends high inside the bar', () => {
    const next = applyLastPrice([bar(0, 10)], '1h', 15, H / 2)
    expect(next?.[0]).toMatchObject({ close: 15, high: 15, low: 7 })
  })
  it('opens a new bar aligned to the interval once past the close', () => {
    const next = applyLastPrice([bar(0, 10)], '1h', 11, 2 * H + 5)
    expect(next).toHaveLength(2)
    expect(next?.[1]).toMatchObject({ openTime: 2 * H, closeTime: 3 * H - 1, open: 11, close: 11 })
  })
  it("opens next month's bar on a monthly chart, closing at that month's end (shared bar rule)", () => {
    const jan = Date.UTC(2026, 0, 1)
    const monthly: Bar = { ...bar(jan, 10), closeTime: Date.UTC(2026, 1, 1) - 1 }
    const next = applyLastPrice([monthly], '1mo', 12, Date.UTC(2026, 1, 14))
    expect(next?.[1]).toMatchObject({
      openTime: Date.UTC(2026, 1, 1),
      closeTime: Date.UTC(2026, 2, 1) - 1,
      close: 12,
    })
  })
  it('returns null when nothing changed, so the chart does not redraw', () => {
    expect(applyLastPrice([bar(0, 10)], '1h', 10, 10)).toBeNull()
    expect(applyLastPrice([], '1h', 10, 10)).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import type { Bar } from '../../../shared/quote'
import { TileSeries } from './tile-series'

const MIN = 60_000
const bar = (openMin: number, close: number): Bar => ({
  openTime: openMin * MIN,
  closeTime: openMin * MIN + 5 * MIN - 1,
  open: close,
  high: close + 1,
  low: close - 1,
  close,
  volume: 10,
})

describe('a wall tile’s bars', () => {
  it('moves the last bar with a live price in place: the same arrays, no new bar', () => {
    const s = new TileSeries('5m')
    s.load([bar(0, 100), bar(5, 101)], '5m')
    const closes = s.columns[4]
    expect(s.applyPrice(105, 6 * MIN)).toBe(true)
    expect(s.columns[4]).toBe(closes)
    expect(s.columns[4]).toEqual([100, 105])
    expect(s.columns[2][1]).toBe(105)
    expect(s.applyPrice(105, 7 * MIN)).toBe(false)
  })

  it('opens the next bar once a price is past the last bar’s close, in its phase', () => {
    const s = new TileSeries('5m')
    s.load([bar(0, 100)], '5m')
    expect(s.applyPrice(99, 12 * MIN)).toBe(true)
    expect(s.columns[0]).toEqual([0, 10 * 60])
    expect(s.columns[1][1]).toBe(99)
  })

  it('keeps at most its capacity, dropping the oldest bar', () => {
    const s = new TileSeries('5m', 3)
    s.load([bar(0, 1), bar(5, 2), bar(10, 3)], '5m')
    s.applyPrice(4, 15 * MIN)
    expect(s.columns[0]).toEqual([5 * 60, 10 * 60, 15 * 60])
    expect(s.length).toBe(3)
  })

  it('starts from live prices when the app has no bars yet, and ignores older prices', () => {
    const s = new TileSeries('1h')
    s.load([], '1h')
    expect(s.applyPrice(50, 90 * MIN)).toBe(true)
    expect(s.columns[0]).toEqual([60 * 60])
    expect(s.applyPrice(49, 80 * MIN)).toBe(false)
    expect(s.firstOpen).toBe(60 * MIN)
  })

  it("draws a daily tile's last bar from the quote's day where the app builds the bars", () => {
    const DAY = 86_400_000
    const today = Date.UTC(2026, 10, 30)
    const s = new TileSeries('1d', 48, true)
    const built = {
      openTime: today,
      closeTime: today + DAY - 1,
      open: 104,
      high: 106,
      low: 103,
      close: 105,
      volume: 3,
    }
    s.load([built], '1d')
    const day = { open: 100, high: 110, low: 95, prevClose: 99 }
    expect(s.applyPrice(105, today + 3_600_000, day)).toBe(true)
    expect(s.columns.map((c) => c[0])).toEqual([today / 1000, 100, 110, 95, 105, 3])
    // A tile whose bars the service sends keeps the service's bar.
    const served = new TileSeries('1d', 48, false)
    served.load([built], '1d')
    served.applyPrice(105.5, today + 3_600_000, day)
    expect(served.columns[1][0]).toBe(104)
  })
})

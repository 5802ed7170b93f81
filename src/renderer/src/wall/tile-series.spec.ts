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
})

import { describe, expect, it } from 'vitest'
import { BARS_SHARE, barsSpan, buildingRange, buildingWindow } from './price-range'
import { withQuoteDayBar } from './day-bar'
import type { Bar } from '../../../../shared/quote'

const NO_DAY = { open: null, high: null, low: null, prevClose: null }

describe('the price axis of a chart still building', () => {
  it("takes in the day's high, low and previous close from the quote, padded", () => {
    const r = buildingRange(
      { low: 100, high: 100.5 },
      { open: 99, high: 102, low: 98, prevClose: 97 },
    )
    expect(r.min).toBeLessThan(97)
    expect(r.max).toBeGreaterThan(102)
  })

  it('never lets a bar fill the chart from top to bottom, even with no day from the quote', () => {
    const bar = { low: 100, high: 104 }
    const r = buildingRange(bar, NO_DAY)
    expect((bar.high - bar.low) / (r.max - r.min)).toBeLessThanOrEqual(BARS_SHARE)
  })

  it('gives a still price an axis of its own', () => {
    const r = buildingRange({ low: 50, high: 50 }, NO_DAY)
    expect(r.max - r.min).toBeGreaterThan(0.09)
    expect(r.min).toBeLessThan(50)
    expect(r.max).toBeGreaterThan(50)
  })

  it("spans the bars' lows and highs, skipping gaps", () => {
    expect(barsSpan([3, null, 1], [5, null, 4])).toEqual({ low: 1, high: 5 })
    expect(barsSpan([], [])).toBeNull()
  })

  it('shows its window ending at the last bar while it holds fewer bars, and fits a full one', () => {
    expect(buildingWindow([1000, 1060, 1120], 60, 48)).toEqual({ min: 1120 - 47.5 * 60, max: 1150 })
    expect(
      buildingWindow(
        Array.from({ length: 48 }, (_, i) => i * 60),
        60,
        48,
      ),
    ).toBeNull()
  })
})

describe("today's daily bar from the quote", () => {
  const DAY = 86_400_000
  const today = Date.UTC(2026, 10, 30)
  const built = (openTime: number, o: number, h: number, l: number, c: number): Bar => ({
    openTime,
    closeTime: openTime + DAY - 1,
    open: o,
    high: h,
    low: l,
    close: c,
    volume: 7,
  })
  const quote = { open: 100, high: 110, low: 95, prevClose: 99 }

  it('replaces the bar built since the app first saw the symbol, keeping its volume', () => {
    const bars = [built(today - DAY, 90, 99, 89, 99), built(today, 104, 106, 103, 105)]
    const out = withQuoteDayBar(bars, '1d', quote, 105, today + 5 * 3_600_000)
    expect(out.at(-1)).toEqual({ ...built(today, 100, 110, 95, 105), volume: 7 })
    expect(out[0]).toBe(bars[0])
  })

  it('adds it when none was built yet, and leaves other intervals and a quote without a day alone', () => {
    expect(withQuoteDayBar([], '1d', quote, 105, today + 1)).toEqual([
      { ...built(today, 100, 110, 95, 105), volume: 0 },
    ])
    const bars = [built(today, 104, 106, 103, 105)]
    expect(withQuoteDayBar(bars, '1h', quote, 105, today + 1)).toBe(bars)
    expect(withQuoteDayBar(bars, '1d', { ...quote, high: null }, 105, today + 1)).toBe(bars)
  })
})

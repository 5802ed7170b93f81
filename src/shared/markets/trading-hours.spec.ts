import { describe, expect, it } from 'vitest'
import { OUTSIDE_HOURS_MS, tradesOutsideHours, tradingWindow } from './trading-hours'

// Wednesday 25 Nov 2026, 02:00 in Shanghai (Tuesday 18:00 UTC); the SSE opens at 09:30.
const NIGHT = Date.UTC(2026, 10, 24, 18, 0)
const OPEN = Date.UTC(2026, 10, 25, 1, 30)

describe('tradingWindow (the hours the demo simulator keeps)', () => {
  it('says a closed A-share market does not trade until the morning open, and trades until lunch', () => {
    expect(tradingWindow('cn', '600519', NIGHT)).toMatchObject({ trading: false, until: OPEN })
    expect(tradingWindow('cn', '600519', OPEN)).toMatchObject({
      trading: true,
      until: Date.UTC(2026, 10, 25, 3, 30),
    })
  })
  it('trades crypto around the clock', () => {
    expect(tradingWindow('crypto', 'BTCUSDT', NIGHT)).toMatchObject({ trading: true, until: null })
  })
})

describe('tradesOutsideHours (the data outranks the timetable)', () => {
  it('holds while prices move after the close, and not for the last trade before it', () => {
    expect(tradesOutsideHours('cn', '600519', NIGHT - 1000, NIGHT)).toBe(true)
    expect(tradesOutsideHours('cn', '600519', NIGHT - OUTSIDE_HOURS_MS - 1, NIGHT)).toBe(false)
    const close = Date.UTC(2026, 10, 25, 7, 0)
    expect(tradesOutsideHours('cn', '600519', close - 1000, close + 1000)).toBe(false)
    expect(tradesOutsideHours('cn', '600519', OPEN + 1000, OPEN + 2000)).toBe(false)
    expect(tradesOutsideHours('cn', '600519', null, NIGHT)).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { historyNote, SHORT_HISTORY_BARS } from './history-words'

const at = (h: number, m: number): number => new Date(2027, 0, 5, h, m).getTime()

describe('what a chart says about its history', () => {
  it('says bars of a market without a candle endpoint are built from live prices, how many and since when', () => {
    expect(historyNote(14, at(22, 59), false, at(23, 20))).toBe(
      'Built from live prices since 22:59: 14 bars; this market has no candle endpoint',
    )
    expect(historyNote(1, at(9, 5), false, at(9, 6))).toContain('since 09:05: 1 bar;')
  })

  it('names the day when the history began before today', () => {
    expect(historyNote(3, at(22, 59), false, at(22, 59) + 86_400_000)).toContain(
      'since Jan 5 22:59',
    )
  })

  it('says there are no bars yet rather than showing an empty chart', () => {
    expect(historyNote(0, undefined, false, at(1, 0))).toMatch(/^No bars yet/)
    expect(historyNote(0, undefined, true, at(1, 0))).toMatch(/no bars/)
  })

  it('says nothing about a long history from the service, and counts a short one', () => {
    expect(historyNote(SHORT_HISTORY_BARS, at(1, 0), true, at(2, 0))).toBeNull()
    expect(historyNote(5, at(1, 0), true, at(2, 0))).toBe(
      '5 bars since 01:00: all the service has at this interval',
    )
  })
})

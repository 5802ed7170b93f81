import { describe, expect, it } from 'vitest'
import { historyNote, historyWord } from './history-words'

const at = (h: number, m: number): number => new Date(2027, 0, 5, h, m).getTime()
const built = (bars: number, first: number | undefined) => ({
  bars,
  shown: 48,
  firstOpen: first,
  candleEndpoint: false,
})

describe('what a chart says about its history', () => {
  it('says a chart is building: how many bars of how many it shows, since when, from what', () => {
    expect(historyNote(built(3, at(17, 5)), at(17, 20))).toBe(
      'Building: 3 of 48 bars since 17:05, from live prices (this market has no candle endpoint)',
    )
    expect(historyWord(built(3, at(17, 5)), at(17, 20))).toBe('building: 3 of 48 bars since 17:05')
  })

  it('still says where the bars come from once the window is full', () => {
    expect(historyNote(built(48, at(9, 5)), at(17, 6))).toBe(
      'Built from live prices (this market has no candle endpoint) since 09:05: 48 bars',
    )
    expect(historyWord(built(60, at(9, 5)), at(17, 6))).toBe('built from live prices')
  })

  it("says where today's daily bar came from when the quote drew it", () => {
    expect(historyNote({ ...built(2, at(0, 0)), dayFromQuote: true }, at(9, 0))).toBe(
      "Building: 2 of 48 bars since 00:00, from live prices (this market has no candle endpoint); today's bar from the quote's open, high and low",
    )
  })

  it('names the day when the history began before today', () => {
    expect(historyNote(built(3, at(22, 59)), at(22, 59) + 86_400_000)).toContain(
      'since Jan 5 22:59',
    )
  })

  it('says there are no bars yet rather than showing an empty chart', () => {
    expect(historyNote(built(0, undefined), at(1, 0))).toMatch(/^No bars yet/)
    expect(historyNote({ ...built(0, undefined), candleEndpoint: true }, at(1, 0))).toMatch(
      /no bars/,
    )
    expect(historyWord(built(0, undefined), at(1, 0))).toBe('no bars yet')
  })

  it('says nothing about a full history from the service, and counts a short one', () => {
    const served = { bars: 48, shown: 48, firstOpen: at(1, 0), candleEndpoint: true }
    expect(historyNote(served, at(2, 0))).toBeNull()
    expect(historyWord(served, at(2, 0))).toBe('')
    expect(historyNote({ ...served, bars: 5 }, at(2, 0))).toBe(
      '5 of 48 bars since 01:00: all the service has at this interval',
    )
  })
})

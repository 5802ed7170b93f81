import { formatClock } from '../../../../shared/markets/clock-text'

/**
 * Below this many bars a chart's history is short: a detail chart of a market whose bars the app
 * builds from live prices opens at a finer interval that has this many (opening-interval.ts).
 */
export const SHORT_HISTORY_BARS = 30

const barsText = (n: number): string => (n === 1 ? '1 bar' : `${n} bars`)

/** How much history a chart holds: its bars, the most it shows, and since when (epoch ms). */
export interface HistoryShape {
  bars: number
  /** Bars the chart's view shows when it has them all (its window). */
  shown: number
  firstOpen: number | undefined
  /** Whether the market's bars come from the service (a candle endpoint) or the app builds them. */
  candleEndpoint: boolean
  /** Today's daily bar drawn from the quote's open, high and low (plot/day-bar.ts). */
  dayFromQuote?: boolean
}

/**
 * What a chart says about its history, so a trader never reads a few candles stretched over a
 * chart as a quiet month: a chart still building ("Building: 3 of 48 bars since 17:05"), where
 * its bars come from when the market has no candle endpoint (built by the app from live prices,
 * so they start when the app first saw the symbol), and when the service has no more. Null when
 * there is nothing worth saying. `now` is epoch ms; times are the trader's local clock.
 */
export function historyNote(h: HistoryShape, now: number): string | null {
  if (h.bars === 0 || h.firstOpen === undefined)
    return h.candleEndpoint
      ? 'The service has no bars for this symbol yet'
      : 'No bars yet: this market has no candle endpoint, so its bars are built from live prices; the first one comes with the next price'
  const since = formatClock(h.firstOpen, now)
  if (!h.candleEndpoint) {
    const from = 'from live prices (this market has no candle endpoint)'
    const today = h.dayFromQuote === true ? "; today's bar from the quote's open, high and low" : ''
    return h.bars < h.shown
      ? `Building: ${h.bars} of ${h.shown} bars since ${since}, ${from}${today}`
      : `Built ${from} since ${since}: ${barsText(h.bars)}${today}`
  }
  if (h.bars >= h.shown) return null
  return `${h.bars} of ${h.shown} bars since ${since}: all the service has at this interval`
}

/** A tile's word for the same, short enough for its foot: "building: 3 of 48 bars since 17:05". */
export function historyWord(h: HistoryShape, now: number): string {
  if (h.bars === 0 || h.firstOpen === undefined) return 'no bars yet'
  if (h.bars >= h.shown) return h.candleEndpoint ? '' : 'built from live prices'
  const since = formatClock(h.firstOpen, now)
  return h.candleEndpoint
    ? `${h.bars} of ${h.shown} bars since ${since}: all there is`
    : `building: ${h.bars} of ${h.shown} bars since ${since}`
}

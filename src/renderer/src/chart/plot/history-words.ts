import { formatClock } from '../../../../shared/markets/clock-text'

/**
 * Below this many bars a chart's history is short, and the chart says how much there is and since
 * when: a trader reading a flat line of 14 candles must know it is 14 candles, not a quiet month.
 */
export const SHORT_HISTORY_BARS = 30

const barsText = (n: number): string => (n === 1 ? '1 bar' : `${n} bars`)

/**
 * What the chart says about its history (issue 40): where the bars come from when the market has
 * no candle endpoint (built by the app from live prices, so they start when the app first saw the
 * symbol), and how many there are when they are few. Null when there is nothing worth saying.
 * `firstOpen` and `now` are epoch ms; times are the trader's local clock.
 */
export function historyNote(
  bars: number,
  firstOpen: number | undefined,
  candleEndpoint: boolean,
  now: number,
): string | null {
  if (!candleEndpoint) {
    if (bars === 0 || firstOpen === undefined)
      return 'No bars yet: this market has no candle endpoint, so its bars are built from live prices; the first one comes with the next price'
    return `Built from live prices since ${formatClock(firstOpen, now)}: ${barsText(bars)}; this market has no candle endpoint`
  }
  if (bars === 0 || firstOpen === undefined) return 'The service has no bars for this symbol yet'
  if (bars >= SHORT_HISTORY_BARS) return null
  return `${barsText(bars)} since ${formatClock(firstOpen, now)}: all the service has at this interval`
}

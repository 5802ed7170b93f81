import { QUOTE_FIGURES, type Quote } from '../../shared/quote'
import { B_CHANGE, B_CHANGE_PCT, B_LAST, B_PREV_CLOSE } from './quote-merge'
import { BIT_MID } from './quote-drain'
import { midOf } from '../../shared/spread'

/**
 * The figures the store works out when an update leaves them out: the previous close a push's
 * change implies (followDay), change and changePercent from the previous close (deriveChange), and
 * the price of a quote sent without a last (midPrice).
 * Both read the quote's numbers from its mirror `m` at `at` (figure-mirror.ts, NaN is null) and
 * write the quote and the mirror; each returns the bits of the figures it changed.
 */

const I_LAST = QUOTE_FIGURES.indexOf('last')
const I_CHANGE = QUOTE_FIGURES.indexOf('change')
const I_CHANGE_PCT = QUOTE_FIGURES.indexOf('changePercent')
const I_PREV_CLOSE = QUOTE_FIGURES.indexOf('prevClose')
const I_BID = QUOTE_FIGURES.indexOf('bid')
const I_ASK = QUOTE_FIGURES.indexOf('ask')

/**
 * How far the previous close a push's change implies may sit from the held one before the held
 * one counts as another day's: relative, well above the rounding of a service's change (a tick)
 * or changePercent (0.01 % at two decimals is 5e-5), and a day's close that sits closer to the
 * last one than this shifts change % by under 0.01 points.
 */
const DAY_TOLERANCE = 1e-4

/**
 * Pushes rarely carry prevClose, but their change implies one. When it disagrees with the held
 * previous close, the service's day has rolled over (or the held close is from an older day: the
 * cache, a poll before midnight), so the implied one is taken: otherwise every later tick without
 * a change would be derived from the old day's close, and change % would flip between the days.
 */
export function followDay(q: Quote, fromChange: boolean, m: Float64Array, at: number): number {
  const last = m[at + I_LAST] as number
  const prevClose = m[at + I_PREV_CLOSE] as number
  if (last !== last || prevClose !== prevClose) return 0
  const change = m[at + I_CHANGE] as number
  const pct = m[at + I_CHANGE_PCT] as number
  let implied: number | null = null
  if (fromChange && change === change) implied = last - change
  else if (pct === pct && pct !== -100) implied = last / (1 + pct / 100)
  if (implied === null || !Number.isFinite(implied)) return 0
  if (Math.abs(implied - prevClose) <= DAY_TOLERANCE * Math.abs(prevClose)) return 0
  // 12 significant digits drop the float noise of the subtraction (84386.49999999999).
  const close = Number(implied.toPrecision(12))
  q.prevClose = close
  m[at + I_PREV_CLOSE] = close
  return B_PREV_CLOSE
}

/**
 * The TickerQuote carries change and changePercent (spec: TickerQuote), but pushes are often
 * partial: a tick with only `last` would leave an old change beside a new price. So when last or
 * prevClose moved, the service's values are kept if this update carries them and recomputed
 * from prevClose otherwise; an update that moves neither (bid/ask only) leaves them alone.
 */
export function deriveChange(
  q: Quote,
  hasChange: boolean,
  hasPct: boolean,
  m: Float64Array,
  at: number,
): number {
  const last = m[at + I_LAST] as number
  const prevClose = m[at + I_PREV_CLOSE] as number
  if (last !== last || prevClose !== prevClose) return 0
  let mask = 0
  if (!hasChange) {
    const change = last - prevClose
    if (m[at + I_CHANGE] !== change) {
      q.change = change
      m[at + I_CHANGE] = change
      mask |= B_CHANGE
    }
  }
  if (!hasPct && prevClose !== 0) {
    const pct = ((last - prevClose) / prevClose) * 100
    if (m[at + I_CHANGE_PCT] !== pct) {
      q.changePercent = pct
      m[at + I_CHANGE_PCT] = pct
      mask |= B_CHANGE_PCT
    }
  }
  return mask
}

/**
 * A quote the service sends without a last is priced by the mid of its bid and ask (both needed,
 * both above 0; shared/spread.ts midOf); `lastIsMid` says so to every view and alert.
 */
export function midPrice(q: Quote, m: Float64Array, at: number): number {
  const bid = m[at + I_BID] as number
  const ask = m[at + I_ASK] as number
  if (!(bid > 0 && ask > 0)) return 0
  const mid = midOf(bid, ask)
  let mask = 0
  if (m[at + I_LAST] !== mid) {
    q.last = mid
    m[at + I_LAST] = mid
    mask |= B_LAST
  }
  if (q.lastIsMid !== true) {
    q.lastIsMid = true
    mask |= BIT_MID
  }
  return mask
}

/** The service sent a last where it sent bid and ask only before: the price is a trade again. */
export function tradedLast(q: Quote): number {
  q.lastIsMid = false
  return BIT_MID
}

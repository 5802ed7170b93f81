import type { Market } from '../../shared/markets/market'
import { sessionAt } from '../../shared/markets/market-sessions'

/**
 * How often a market that is not trading is asked for a quote. Its price does not move while
 * it is closed or at lunch, so the budget goes to open markets; it is still asked this often
 * so a surprise open (a holiday the table lacks, a changed schedule) is caught within minutes.
 */
export const QUIET_POLL_MS = 5 * 60_000

/** Closed or in its break (lunch, daily halt): nothing trades. Pre and post markets do. */
export function isQuiet(market: Market, symbol: string, now: number): boolean {
  const state = sessionAt(market, symbol, now).state
  return state === 'closed' || state === 'break'
}

/**
 * When a symbol polled at `lastAttemptAt` is next due: `minIntervalMs` after it while its
 * market trades; while it is quiet, QUIET_POLL_MS after it or the moment the market opens,
 * whichever comes first.
 */
export function nextPollAt(
  market: Market,
  symbol: string,
  lastAttemptAt: number,
  minIntervalMs: number,
  now: number,
): number {
  const s = sessionAt(market, symbol, now)
  if (s.state !== 'closed' && s.state !== 'break') return lastAttemptAt + minIntervalMs
  const quietDue = lastAttemptAt + Math.max(minIntervalMs, QUIET_POLL_MS)
  return s.nextChange === null
    ? quietDue
    : Math.min(quietDue, Math.max(s.nextChange, lastAttemptAt + minIntervalMs))
}

/** When the market's session next changes (Infinity when none is known): nextPollAt's answer holds until then. */
export function sessionChangeAfter(market: Market, symbol: string, now: number): number {
  return sessionAt(market, symbol, now).nextChange ?? Infinity
}

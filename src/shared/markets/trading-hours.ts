import type { Market } from './market'
import { sessionOf, timetableFor, type SessionState } from './market-sessions'
import { SpanMemo } from './span-memo'

/**
 * Whether a market trades, from the shipped timetables, and what a row makes of prices that move
 * when the timetable says they should not. Two readers: the demo feed's simulator follows these
 * hours (the hosts inject tradingWindow), and a row whose price moves while its timetable says
 * closed believes the price: a real service's hours can differ from ours (a holiday we
 * do not list, extended hours), and "Closed" beside a moving price is the one thing a trader
 * will not believe.
 */

/** Regular hours and the extended ones both trade; a break or a close does not. */
const TRADING: ReadonlySet<SessionState> = new Set(['open', 'pre', 'post'])

export interface TradingWindow {
  trading: boolean
  /** Epoch ms when that stops being true; null: never (24/7), or not within the timetable. */
  until: number | null
}

/** A session change flips trading within a few changes (open -> post -> closed at most). */
const MAX_CHANGES = 8

/** Windows kept per timetable (span-memo.ts says why more than one). */
const memo = new SpanMemo<TradingWindow>(4)
/** How long an answer without a known end is reused before the timetable is asked again. */
const RECHECK_MS = 3_600_000

/** Whether the market trades at `at`, and until when that holds. Reused until it changes. */
export function tradingWindow(
  market: Market,
  symbol: string | undefined,
  at: number,
): TradingWindow {
  const tt = timetableFor(market, symbol)
  const hit = memo.get(tt.id, at)
  if (hit !== undefined) return hit
  let info = sessionOf(tt, at)
  const trading = TRADING.has(info.state)
  let until: number | null = null
  for (let i = 0; i < MAX_CHANGES && info.nextChange !== null; i++) {
    const next = info.nextChange
    info = sessionOf(tt, next)
    if (TRADING.has(info.state) !== trading) {
      until = next
      break
    }
  }
  const window = { trading, until }
  // 24/7 never changes; a window whose end lies beyond the timetable is asked again later.
  const to = until ?? (tt.week === 'always' ? Infinity : at + RECHECK_MS)
  memo.set(tt.id, at, to, window)
  return window
}

/**
 * How long a price move made outside listed hours keeps a row saying so: a market that trades
 * moves well within this (a polled one once a poll), and one that stopped is "Closed" again.
 */
export const OUTSIDE_HOURS_MS = 5 * 60_000

/**
 * The data outranks the timetable: the timetable says the market does not trade now, yet its
 * price moved at `movedAt` (epoch ms), also outside listed hours, within OUTSIDE_HOURS_MS. A move
 * made before the close (the last trade of the day) is not one.
 */
export function tradesOutsideHours(
  market: Market,
  symbol: string | undefined,
  movedAt: number | null,
  now: number,
): boolean {
  if (movedAt === null || movedAt <= 0 || Math.abs(now - movedAt) > OUTSIDE_HOURS_MS) return false
  if (tradingWindow(market, symbol, now).trading) return false
  return !tradingWindow(market, symbol, movedAt).trading
}

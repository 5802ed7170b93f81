import type { Interval } from '../shared/quote'

/**
 * Interval aliases. The spec (GET /api/v1/market/tv-futures/kline) accepts "1 or 1m, 5, 15, 60 or 1h,
 * 240 or 4h, 1d, 1w, 1mo"; services also write D/W/M. Case matters only where it disambiguates:
 * 'm' is a minute, 'M' is a month.
 */
const ALIASES: Record<string, Interval> = {
  '1': '1m',
  '1m': '1m',
  '5': '5m',
  '5m': '5m',
  '15': '15m',
  '15m': '15m',
  '60': '1h',
  '1h': '1h',
  '1H': '1h',
  '240': '4h',
  '4h': '4h',
  '4H': '4h',
  '1d': '1d',
  '1D': '1d',
  D: '1d',
  d: '1d',
  '1w': '1w',
  '1W': '1w',
  W: '1w',
  w: '1w',
  '1mo': '1mo',
  '1MO': '1mo',
  M: '1mo',
  '1M': '1mo',
}

/** The form we send: the spec's first-listed spelling of each interval. */
const WIRE: Record<Interval, string> = {
  '1m': '1',
  '5m': '5',
  '15m': '15',
  '1h': '60',
  '4h': '240',
  '1d': '1d',
  '1w': '1w',
  '1mo': '1mo',
}

const MINUTE = 60_000
const LENGTH_MS: Record<Interval, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '1d': 1440 * MINUTE,
  '1w': 7 * 1440 * MINUTE,
  // A calendar month varies; 30 days is only used to guess a missing closeTime.
  '1mo': 30 * 1440 * MINUTE,
}

/** Any alias (1, 1m, 60, 1h, D, M, 1mo …) to the canonical Interval; null when unknown. */
export function normaliseInterval(input: string | number): Interval | null {
  const text = String(input).trim()
  return Object.prototype.hasOwnProperty.call(ALIASES, text) ? (ALIASES[text] ?? null) : null
}

/** The canonical Interval as the service's query parameter ('1', '5', '15', '60', '240', '1d', '1w', '1mo'). */
export function toWireInterval(interval: Interval): string {
  return WIRE[interval]
}

/** Nominal length of one bar in ms (1mo counts as 30 days). */
export function intervalMs(interval: Interval): number {
  return LENGTH_MS[interval]
}

import type { Interval } from './quote'

/**
 * The one table of candle intervals and the one rule for bar times, shared by the engine (REST
 * bars, pushed candles, bars built from ticks) and the renderer's chart (architecture: Layers
 * is pure; an interval table defined twice drifts, and it did).
 *
 * Aliases: the spec (GET /api/v1/market/tv-futures/kline) accepts "1 or 1m, 5, 15, 60 or 1h, 240
 * or 4h, 1d, 1w, 1mo"; services also write D/W/M. Case matters only where it disambiguates:
 * 'm' is a minute, 'M' a month.
 *
 * Bar times: buckets are UTC; days start at 00:00, weeks on Monday, months on the 1st. A bar's
 * close is its last millisecond, the instant before the next bar opens (openTime + length - 1,
 * a calendar month for 1mo). When the service sends no usable close, that is the close, whichever
 * path the bar came by.
 */
const ALIASES: Readonly<Record<string, Interval>> = {
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
const WIRE: Readonly<Record<Interval, string>> = {
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
const DAY = 1440 * MINUTE
/** 1970-01-01 was a Thursday; Monday 1970-01-05 starts week buckets. */
const MONDAY_OFFSET = 4 * DAY

/** Nominal length per interval; 1mo counts 30 days (a calendar month varies: see bucketEnd). */
const LENGTH_MS: Readonly<Record<Interval, number>> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '1d': DAY,
  '1w': 7 * DAY,
  '1mo': 30 * DAY,
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

/** Open time of the UTC bucket holding `ts`. */
export function bucketStart(interval: Interval, ts: number): number {
  if (interval === '1w')
    return Math.floor((ts - MONDAY_OFFSET) / (7 * DAY)) * 7 * DAY + MONDAY_OFFSET
  if (interval === '1mo') {
    const d = new Date(ts)
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
  }
  const ms = LENGTH_MS[interval]
  return Math.floor(ts / ms) * ms
}

/**
 * The last millisecond of the bar opening at `openTime`: the bar rule for every path. The open
 * need not sit on a UTC boundary (a service may open daily bars at its exchange's hour): the bar
 * lasts one interval from wherever it opens, one calendar month for 1mo.
 */
export function bucketEnd(interval: Interval, openTime: number): number {
  return nextOpen(interval, openTime) - 1
}

/**
 * A bar's close: the service's own when it is a time at or after the open, else the rule above.
 * REST bars, pushed candles and bars built from ticks all close by this one function.
 */
export function barCloseTime(interval: Interval, openTime: number, given: number | null): number {
  return given !== null && given >= openTime ? given : bucketEnd(interval, openTime)
}

/** The open of the bar after the one opening at `openTime`. */
function nextOpen(interval: Interval, openTime: number): number {
  if (interval !== '1mo') return openTime + LENGTH_MS[interval]
  const d = new Date(openTime)
  return Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  )
}

/**
 * The open of the bar holding `ts`, in the phase of a bar that opened at `lastOpen` (at or before
 * ts): how a live price opens the next bar on a chart whose bars came from the service.
 */
export function barOpenFor(interval: Interval, lastOpen: number, ts: number): number {
  if (interval !== '1mo') {
    const step = LENGTH_MS[interval]
    return lastOpen + Math.floor((ts - lastOpen) / step) * step
  }
  let open = lastOpen
  for (let next = nextOpen(interval, open); next <= ts; next = nextOpen(interval, open)) open = next
  return open
}

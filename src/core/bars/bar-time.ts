import { barCloseTime } from '../../shared/intervals'
import { fromWall } from '../../shared/markets/zoned-time'
import type { Bar, Interval } from '../../shared/quote'
import { coerceNumber } from '../quotes/quote-fields'

/**
 * Times from the service, one parser for every path (REST bars, TickerQuote, pushes). The spec
 * (Continuous futures candles payload, Bar) says only that a bar carries openTime or openTimeMs
 * and closeTime or closeTimeMs, "string or number", format not shown. We accept ISO strings,
 * numeric strings and epoch numbers, telling the unit by magnitude: below 1e11 is seconds (1e11 s
 * is the year 5138 while 1e11 ms is 1973), from 1e14 microseconds, from 1e17 nanoseconds.
 * Anything before 1973 (a trade id, a counter) or beyond what a Date holds is not a time.
 * An ISO time without an offset ("2026-11-27T09:30:00") is the exchange's wall clock, read in the
 * zone the caller names (the market's, shared/markets timetables); never in the user's zone,
 * which is what Date.parse would do. Without a zone it is read as UTC.
 */
const SECONDS_BELOW = 1e11
const MICROS_FROM = 1e14
const NANOS_FROM = 1e17
const MIN_EPOCH_MS = 1e11
const MAX_DATE_MS = 8.64e15
const NUMERIC = /^-?\d+(\.\d+)?$/
/** A date and a time of day with no offset and no Z. */
const ZONELESS = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/

/** An untrusted time value to epoch ms; null when it is not a time. */
export function toEpochMs(value: unknown, timeZone = 'UTC'): number | null {
  if (typeof value === 'number') return fromNumber(value)
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  if (trimmed === '') return null
  if (NUMERIC.test(trimmed)) return fromNumber(Number(trimmed))
  if (!ZONELESS.test(trimmed)) return inRange(Date.parse(trimmed))
  const wall = Date.parse(`${trimmed.replace(' ', 'T')}Z`)
  if (!Number.isFinite(wall)) return null
  return inRange(timeZone === 'UTC' ? wall : fromWall(wall, timeZone))
}

/** Whether a time value is a wall-clock time without an offset (read in its market's zone). */
export function isZoneless(value: unknown): boolean {
  return typeof value === 'string' && ZONELESS.test(value.trim())
}

function fromNumber(value: number): number | null {
  if (!Number.isFinite(value) || value <= 0) return null
  let n = value
  if (n < SECONDS_BELOW) n *= 1000
  else if (n >= NANOS_FROM) n /= 1e6
  else if (n >= MICROS_FROM) n /= 1e3
  return inRange(Math.round(n))
}

function inRange(ms: number): number | null {
  return Number.isFinite(ms) && ms >= MIN_EPOCH_MS && ms <= MAX_DATE_MS ? ms : null
}

/**
 * A quote's or tick's own time, never ahead of when it was received: a TickerQuote's closeTime is
 * its window's close (spec: TickerQuote), and a service whose window closes at the end of the day
 * would otherwise date the quote, and the bars built from it, in the future.
 */
export function quoteTime(value: unknown, receivedAt: number, timeZone?: string): number | null {
  const ms = toEpochMs(value, timeZone)
  return ms === null ? null : Math.min(ms, receivedAt)
}

export interface ParsedBars {
  bars: Bar[]
  /** Entries that were not a usable bar (no open time, missing OHLC, high below low). */
  skipped: number
}

/**
 * Untrusted bars to Bar[], ascending by openTime, one bar per openTime (the last one wins). A
 * missing or impossible close follows the one bar rule (shared/intervals barCloseTime). A missing
 * volume becomes 0: Bar has no null volume and FX bars often carry none. A bar may be an object
 * (spec: Continuous futures candles payload, Bar) or an array in the order exchanges write it,
 * [openTime, open, high, low, close, volume?, closeTime?] (the spec shows the object only; arrays
 * are as common).
 */
export function parseBars(raw: unknown, interval: Interval, timeZone?: string): ParsedBars {
  if (!Array.isArray(raw)) return { bars: [], skipped: 0 }
  const byOpen = new Map<number, Bar>()
  let skipped = 0
  for (const entry of raw) {
    const bar = Array.isArray(entry)
      ? parseBar(barFromArray(entry), interval, timeZone)
      : parseBar(entry, interval, timeZone)
    if (bar) byOpen.set(bar.openTime, bar)
    else skipped += 1
  }
  const bars = [...byOpen.values()].sort((a, b) => a.openTime - b.openTime)
  return { bars, skipped }
}

/** [openTime, open, high, low, close, volume?, closeTime?] as the object form's fields. */
export function barFromArray(a: readonly unknown[]): Record<string, unknown> {
  return {
    openTime: a[0],
    open: a[1],
    high: a[2],
    low: a[3],
    close: a[4],
    volume: a[5],
    closeTime: a[6],
  }
}

function parseBar(entry: unknown, interval: Interval, timeZone?: string): Bar | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return null
  const r = entry as Record<string, unknown>
  const openTime = toEpochMs(r.openTimeMs ?? r.openTime, timeZone)
  if (openTime === null) return null
  const closeTime = barCloseTime(
    interval,
    openTime,
    toEpochMs(r.closeTimeMs ?? r.closeTime, timeZone),
  )
  const open = coerceNumber(r.open)
  const high = coerceNumber(r.high)
  const low = coerceNumber(r.low)
  const close = coerceNumber(r.close)
  if (open === undefined || high === undefined || low === undefined || close === undefined)
    return null
  if (high < low) return null
  const volume = coerceNumber(r.volume) ?? 0
  return { openTime, closeTime, open, high, low, close, volume }
}

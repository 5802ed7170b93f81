import type { Bar, Interval } from '../shared/quote'
import { coerceNumber } from './quote-fields'
import { intervalMs } from './intervals'

/**
 * Bar times. The spec (Continuous futures candles payload, Bar) says only that a bar carries
 * openTime or openTimeMs and closeTime or closeTimeMs, "string or number", format not shown. We
 * accept ISO strings, numeric strings, epoch seconds and epoch ms, telling seconds from ms by
 * magnitude: 1e11 s is the year 5138 while 1e11 ms is 1973, so anything below is seconds.
 * Values above 1e14 are taken as microseconds (some feeds use them).
 */
const SECONDS_BELOW = 1e11
const MICROS_ABOVE = 1e14
const MAX_DATE_MS = 8.64e15

/** An untrusted time value to epoch ms; null when it is not a time. */
export function toEpochMs(value: unknown): number | null {
  if (typeof value === 'string') {
    const trimmed = value.trim()
    if (trimmed === '') return null
    if (!/^-?\d+(\.\d+)?$/.test(trimmed)) {
      const parsed = Date.parse(trimmed)
      return Number.isNaN(parsed) ? null : parsed
    }
  }
  const n = coerceNumber(value)
  if (n === undefined || n <= 0) return null
  const ms = Math.round(n < SECONDS_BELOW ? n * 1000 : n > MICROS_ABOVE ? n / 1000 : n)
  // Not a time: rounds to the epoch itself, or beyond what a Date holds (found by test/fuzz).
  return ms > 0 && ms <= MAX_DATE_MS ? ms : null
}

export interface ParsedBars {
  bars: Bar[]
  /** Entries that were not a usable bar (no open time, missing OHLC, high below low). */
  skipped: number
}

/**
 * Untrusted bars to Bar[], ascending by openTime, one bar per openTime (the last one wins).
 * closeTime missing -> openTime + interval length - 1 (the convention of inclusive close times).
 * A missing volume becomes 0: Bar has no null volume and FX bars often carry none.
 */
export function parseBars(raw: unknown, interval: Interval): ParsedBars {
  if (!Array.isArray(raw)) return { bars: [], skipped: 0 }
  const byOpen = new Map<number, Bar>()
  let skipped = 0
  for (const entry of raw) {
    const bar = parseBar(entry, interval)
    if (bar) byOpen.set(bar.openTime, bar)
    else skipped += 1
  }
  const bars = [...byOpen.values()].sort((a, b) => a.openTime - b.openTime)
  return { bars, skipped }
}

function parseBar(entry: unknown, interval: Interval): Bar | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return null
  const r = entry as Record<string, unknown>
  const openTime = toEpochMs(r.openTimeMs ?? r.openTime)
  if (openTime === null) return null
  const closeRaw = toEpochMs(r.closeTimeMs ?? r.closeTime)
  const closeTime =
    closeRaw !== null && closeRaw >= openTime ? closeRaw : openTime + intervalMs(interval) - 1
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

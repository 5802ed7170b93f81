import { seededRandom } from '../../util/random'
import { roundToTick, type Instrument } from './instruments'
import { hashSeed, type SimBar } from './price-walk'

/**
 * Historical candles for the kline endpoints, generated backward from "now": the newest bar
 * closes near the instrument's level and each older bar opens where the next one started.
 * The generator is seeded by (seed, symbol, interval, newest bar's open time), so the same seed
 * returns the same bars for as long as the newest bar is the same bar.
 */

/** The intervals the spec names for GET tv-futures/kline, in the sim's own words. */
export type Interval = '1m' | '5m' | '15m' | '1h' | '4h' | '1d' | '1w' | '1mo'

/** Aliases from the spec (GET tv-futures/kline: 1 or 1m, 5, 15, 60 or 1h, 240 or 4h, 1d, 1w, 1mo). */
const INTERVAL_ALIASES: Record<string, Interval> = {
  '1': '1m',
  '1m': '1m',
  '5': '5m',
  '5m': '5m',
  '15': '15m',
  '15m': '15m',
  '60': '1h',
  '1h': '1h',
  '240': '4h',
  '4h': '4h',
  '1d': '1d',
  '1D': '1d',
  D: '1d',
  '1w': '1w',
  '1W': '1w',
  W: '1w',
  '1mo': '1mo',
  M: '1mo',
}

export function normaliseInterval(raw: string): Interval | null {
  return INTERVAL_ALIASES[raw] ?? null
}

const MINUTE = 60_000
const FIXED_MS: Record<Exclude<Interval, '1w' | '1mo'>, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '1d': 1440 * MINUTE,
}
const WEEK_MS = 7 * 1440 * MINUTE
/** 1970-01-05 was a Monday: weeks open on Monday 00:00 UTC. */
const MONDAY_OFFSET = 4 * 1440 * MINUTE

function monthStart(t: number, back: number): number {
  const d = new Date(t)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1)
}

/** Open time of the bar `back` bars before the one containing `now`. */
function openTimeOf(interval: Interval, now: number, back: number): number {
  if (interval === '1mo') return monthStart(now, back)
  if (interval === '1w') {
    return Math.floor((now - MONDAY_OFFSET) / WEEK_MS) * WEEK_MS + MONDAY_OFFSET - back * WEEK_MS
  }
  const ms = FIXED_MS[interval]
  return Math.floor(now / ms) * ms - back * ms
}

function minutesIn(interval: Interval): number {
  if (interval === '1mo') return 30 * 1440
  if (interval === '1w') return 7 * 1440
  return FIXED_MS[interval] / MINUTE
}

/** `limit` bars, oldest first; closeTime is the next bar's open minus 1 ms. */
export function historicalBars(
  inst: Instrument,
  interval: Interval,
  limit: number,
  now: number,
  seed: number,
): SimBar[] {
  const newestOpen = openTimeOf(interval, now, 0)
  const rng = seededRandom(
    hashSeed(seed, `${inst.market}:${inst.symbol}|${interval}|${newestOpen}`),
  )
  // Scale per-step volatility to the bar length, capped so monthly bars stay plausible.
  const barVol = Math.min(0.15, inst.stepVol * 4 * Math.sqrt(minutesIn(interval)))
  const volumePerBar = inst.lot * 40 * Math.sqrt(minutesIn(interval))
  const bars: SimBar[] = []
  let close = inst.level
  for (let back = 0; back < limit; back++) {
    const openTime = openTimeOf(interval, now, back)
    const closeTime = openTimeOf(interval, now, back - 1) - 1
    const open = close * (1 + (rng() * 2 - 1) * barVol)
    const high = Math.max(open, close) * (1 + rng() * barVol * 0.5)
    const low = Math.min(open, close) * (1 - rng() * barVol * 0.5)
    const t = inst.tick
    bars.push({
      openTime,
      closeTime,
      open: roundToTick(open, t),
      high: roundToTick(high, t),
      low: Math.max(t, roundToTick(low, t)),
      close: roundToTick(close, t),
      volume: Number((volumePerBar * (0.3 + rng() * 1.4)).toFixed(4)),
    })
    // The older bar closes where this one opened: the series is continuous.
    close = open
  }
  return bars.reverse()
}

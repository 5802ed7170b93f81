/**
 * The desk soak's verdict (scripts/desk-soak.ts): each sampled metric judged by its trend
 * (soak-trend.ts), the faults, day ends and alert counted against their bounds, a table and a
 * plot for a reader, soak.json for a machine.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SimServer } from '../../src/sim'
import { plotSvg, trendOf, type Series, type Trend } from '../soak-trend'
import type { DayRoll, QuotaDay } from './day-ends'
import { CRYPTO } from './probes'

/** What the soak samples from outside, in this order in each sample's values. */
export const SAMPLE_NAMES = [
  'page heap',
  'DOM nodes',
  'listeners',
  'host PSS',
  'host anon',
  'host fds',
  'cache files',
  'alert files',
  'log files',
] as const

const names = SAMPLE_NAMES

/** One fault and how long until prices were fresh again (`ends`: timed from the fault's end). */
export interface Recovery {
  fault: string
  ms: number
  ends: boolean
}

export interface SoakRecord {
  hours: number
  tickMs: number
  symbols: number
  outDir: string
  lockoutMs: number
  samples: Array<{ t: number; v: number[] }>
  recoveries: Recovery[]
  dayRolls: DayRoll[]
  quotaDays: QuotaDay[]
  /** Per cycle: how many times the alert it crossed fired (must be 1). */
  alertFires: number[]
  stats: ReturnType<SimServer['stats']>
}

type Name = (typeof names)[number]

// Memory is judged in MB per hour, one allowance whatever the run's length (soak-trend.ts):
// it grows when the second half's slope is above it at 95 %. A run of minutes sees V8's own
// sawtooth (old space grows until a major GC), which widens its interval instead of loosening
// the allowance. The page heap's is 3 like the host's, not lower: a 3-minute run is one cycle,
// so its second half still holds first-time events (1.7-3.7 MB/h, the low end up to 2.58 in
// runs of 2026-11-27). Counts and file sizes keep an allowed rise over the half.
const PER_HOUR: Partial<Record<Name, number>> = {
  'page heap': 3,
  'host PSS': 3,
  'host anon': 3,
}
/** Each metric's unit, its floor (the least rise judged) and its allowed share of a rise. */
const ALLOWANCES: Record<Name, [string, number, number]> = {
  // For the per-hour metrics the floor is their resolution (soak-trend.ts): the page heap is
  // read after two forced GCs; the host's own memory without one moves by MBs (V8's young
  // space, malloc arenas) between samples.
  'page heap': ['MB', 0.5, 0],
  'DOM nodes': ['', 30, 0.02],
  listeners: ['', 5, 0.02],
  // Reported, not judged: see hostProc.
  'host PSS': ['MB', 0, 0],
  'host anon': ['MB', 2, 0],
  'host fds': ['', 3, 0.1],
  'cache files': ['KB', 64, 0.25],
  'alert files': ['KB', 16, 0.25],
  'log files': ['KB', 256, 1],
}

/** Each sampled metric as a series with its allowance, for trendOf and the plot. */
function seriesOf(samples: SoakRecord['samples']): Series[] {
  return names.map((name, i) => ({
    name,
    unit: ALLOWANCES[name][0],
    floor: ALLOWANCES[name][1],
    share: ALLOWANCES[name][2],
    ...(PER_HOUR[name] === undefined ? {} : { perHour: PER_HOUR[name] }),
    judged: name !== 'host PSS',
    points: samples.map((s) => [s.t, s.v[i] as number]),
  }))
}

/** The table of trends, one metric a line. */
function printTrends(trends: readonly Trend[]): void {
  console.log(
    '\nmetric          first      median     last       per hour   95 % interval per hour   verdict',
  )
  for (const t of trends) {
    const byHour = PER_HOUR[t.name as Name] !== undefined
    const over = byHour
      ? `at least ${t.slopeLowPerHour.toFixed(2)}/h > ${t.allowed}/h`
      : `${t.rise.toFixed(2)} > ${t.allowed.toFixed(2)}`
    const within = byHour ? `flat (allowed ${t.allowed}/h)` : 'flat'
    const interval = `[${t.slopeLowPerHour.toFixed(2)}, ${t.slopeHighPerHour.toFixed(2)}]`
    console.log(
      `${t.name.padEnd(15)} ${t.first.toFixed(2).padStart(9)} ${t.median.toFixed(2).padStart(10)} ${t.last.toFixed(2).padStart(10)} ${t.slopePerHour.toFixed(2).padStart(10)}   ${interval.padEnd(22)}   ${t.grows ? `GROWS (${over})` : t.judged ? within : 'not judged'}`,
    )
  }
}

/** The faults, day ends and the service's counts, a line each. */
function printEvents(r: SoakRecord): void {
  const { recoveries, dayRolls, quotaDays, lockoutMs, stats } = r
  const worst = Math.max(0, ...recoveries.filter((r) => r.ends).map((r) => r.ms))
  const halfOpen = Math.max(0, ...recoveries.filter((r) => !r.ends).map((r) => r.ms))
  console.log(
    `faults: ${recoveries.length}; after a drop, a sleep or a stall prices were fresh again within ${worst} ms at worst; a half-open socket was noticed and replaced within ${halfOpen} ms`,
  )
  const worstRoll = Math.max(0, ...dayRolls.map((d) => d.ms))
  console.log(
    `day roll-over: ${dayRolls.length}; change % measured from the new previous close on every crypto row within ${worstRoll} ms at worst (${dayRolls.map((d) => `${d.rowsOnOldDay}/${CRYPTO.length}`).join(', ')} rows on the old day at the roll)`,
  )
  console.log(
    `daily quota: ${quotaDays.length} lockout(s) of ${lockoutMs / 1000} s; the host sent at most ${Math.max(0, ...quotaDays.map((q) => q.requests))} request(s) while locked out; fresh again ${Math.max(0, ...quotaDays.map((q) => q.freshMs))} ms after the day ended at worst`,
  )
  console.log(
    `service saw: ${stats.requests} requests, ${stats.http429} x 429 (${quota429Of(quotaDays)} in quota lockouts), at most ${stats.maxWsOpen} socket(s) open`,
  )
}

const quota429Of = (quotaDays: readonly QuotaDay[]): number =>
  quotaDays.reduce((n, q) => n + q.http429, 0)

/** Each bound the soak holds, true when it held. */
function checksOf(trends: readonly Trend[], r: SoakRecord): Record<string, boolean> {
  const { recoveries, dayRolls, quotaDays, alertFires, stats } = r
  return {
    flat: trends.every((t) => !t.grows),
    freshWithin5s: recoveries.every((r) => !r.ends || r.ms <= 5_000),
    halfOpenNoticed: recoveries.every((r) => r.ends || r.ms <= 40_000),
    oneSocket: stats.maxWsOpen <= 1,
    // rowsOnOldDay > 0: the check could see the old day (no row had its new change by chance).
    dayRollFollowed:
      dayRolls.length > 0 &&
      dayRolls.every((d) => d.ms <= 5_000 && d.rows > 0 && d.rowsOnOldDay > 0),
    // Retry-After honoured: the reconnect that met the 429 and at most a request or two on the way.
    quotaWaited: quotaDays.length > 0 && quotaDays.every((q) => q.requests <= 3 && q.shown),
    callsTodayRestart: quotaDays.every((q) => q.callsAfter < q.callsBefore),
    freshAfterDayEnd: quotaDays.every((q) => q.freshMs <= 5_000),
    no429OutsideLockouts: stats.http429 === quota429Of(quotaDays),
    alertFiredOnce: alertFires.length > 0 && alertFires.every((n) => n === 1),
  }
}

/** soak.json: the verdict, the trends, what each event saw and every sample. */
function resultOf(trends: readonly Trend[], checks: Record<string, boolean>, r: SoakRecord) {
  const { hours, recoveries, dayRolls, quotaDays, alertFires, samples, stats } = r
  return {
    soak: Object.values(checks).every(Boolean) ? 'ok' : 'failed',
    hours,
    trends: trends.map((t) => ({
      ...t,
      slopePerHour: +t.slopePerHour.toFixed(3),
      slopeLowPerHour: +t.slopeLowPerHour.toFixed(3),
      slopeHighPerHour: +t.slopeHighPerHour.toFixed(3),
    })),
    recoveries,
    dayRolls,
    quotaDays,
    alertFires,
    samples: samples.map((x) => ({
      t: Math.round(x.t),
      ...Object.fromEntries(names.map((n, i) => [n, +(x.v[i] as number).toFixed(2)])),
    })),
    requests: stats.requests,
    http429: stats.http429,
    maxWsOpen: stats.maxWsOpen,
    checks,
  }
}

/** Prints the table and the checks, writes soak.svg and soak.json, and says ok or failed. */
export function judgeSoak(r: SoakRecord): 'ok' | 'failed' {
  const series = seriesOf(r.samples)
  const trends = series.map(trendOf)
  printTrends(trends)
  printEvents(r)
  const svg = plotSvg(
    `Tickdesk browser host, ${r.hours} h soak (${r.symbols} symbols, tick every ${r.tickMs} ms)`,
    series,
  )
  writeFileSync(join(r.outDir, 'soak.svg'), svg)
  const checks = checksOf(trends, r)
  const result = resultOf(trends, checks, r)
  writeFileSync(join(r.outDir, 'soak.json'), JSON.stringify(result, null, 2) + '\n')
  console.log(`plot: ${join(r.outDir, 'soak.svg')}`)
  console.log(JSON.stringify({ soak: result.soak, checks }))
  return result.soak === 'ok' ? 'ok' : 'failed'
}

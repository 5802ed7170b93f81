/**
 * The two ends of a service day the desk soak plays (scripts/desk-soak.ts), each measured on the
 * page as a trader sees it: midnight with the stream up, and a day whose quota ran out before it
 * ended.
 */
import type { Page } from 'playwright-core'
import type { SimServer } from '../../src/sim'
import { CRYPTO, pause, rowsOffDay, servicePrevCloses, shownRows, freshAgain } from './probes'

/** A day roll while streaming: the rows whose change % the roll must move, and ms until all did. */
export interface DayRoll {
  rowsOnOldDay: number
  rows: number
  ms: number
}

/**
 * Midnight on the service while the stream is up: every change % restarts from the day's last
 * price. Measured on the page against the service's new previous close, until every row is on
 * the new day and stays there for 2 s.
 */
export async function rollTheDay(page: Page, sim: SimServer): Promise<DayRoll> {
  const before = await shownRows(page)
  sim.day.roll()
  const startedAt = Date.now()
  const closes = await servicePrevCloses(sim)
  // The rows as they were just before the roll, against the new day: what must change.
  const atRoll = rowsOffDay(before, closes) ?? []
  // Until every row is on the new day and stays there for 2 s: a tick without a change
  // must not bring back the old day's (derived from the old previous close).
  let ms = Number.POSITIVE_INFINITY
  let rows = 0
  let settled: number | null = null
  while (Date.now() - startedAt < 30_000) {
    const off = rowsOffDay(await shownRows(page), closes)
    rows = off === null ? 0 : CRYPTO.length - off.length
    if (off === null || off.length > 0) settled = null
    else if (settled === null) settled = Date.now()
    if (settled !== null && Date.now() - settled >= 2_000) {
      ms = settled - startedAt
      break
    }
    await pause(100)
  }
  console.log(
    `  day rolled: ${atRoll.length} of ${CRYPTO.length} crypto rows showed the old day's change, all on the new day (and staying there) after ${ms} ms`,
  )
  return { rowsOnOldDay: atRoll.length, rows, ms }
}

/**
 * A day that ended with the host's quota spent: what the service saw from the host while it was
 * locked out, and how long after the day ended prices were fresh again.
 */
export interface QuotaDay {
  lockoutMs: number
  requests: number
  http429: number
  shown: boolean
  freshMs: number
  /** The status bar's "calls today" late in the locked-out day and once fresh on the next. */
  callsBefore: number
  callsAfter: number
}

/**
 * Another tool on the same key spends what is left of today's quota `lockoutMs` before the day
 * ends; the stream drops, so the reconnect meets 429 DAILY_LIMIT_EXCEEDED with a Retry-After to
 * the day's end.
 */
export async function spendQuotaBeforeDayEnd(
  page: Page,
  sim: SimServer,
  hostKey: string,
  lockoutMs: number,
): Promise<QuotaDay> {
  const keyCounts = (): { requests: number; http429: number } => {
    const k = sim.stats().byKey[hostKey]
    return { requests: k?.requests ?? 0, http429: k?.http429 ?? 0 }
  }
  sim.day.endsIn(lockoutMs)
  const dayEnds = Date.now() + lockoutMs
  sim.day.spendQuota(hostKey)
  sim.faults.dropSockets()
  const at = keyCounts()
  let shown = false
  while (Date.now() < dayEnds - 250) {
    const state = await page
      .getByTestId('connection-state')
      .textContent()
      .catch(() => '')
    shown ||= /quota/i.test(state ?? '')
    await pause(250)
  }
  const callsText = (): Promise<string> =>
    page
      .getByTestId('calls-today')
      .textContent()
      .then((t) => t ?? '')
      .catch(() => '')
  const callsBefore = parseInt(await callsText(), 10)
  await pause(Math.max(0, dayEnds - Date.now()))
  const during = keyCounts()
  const freshMs = await freshAgain(page, dayEnds)
  // The status bar's count starts again with the service's day, not at the host's midnight.
  const callsAfter = parseInt(await callsText(), 10)
  const day: QuotaDay = {
    lockoutMs,
    requests: during.requests - at.requests,
    http429: keyCounts().http429 - at.http429,
    shown,
    freshMs,
    callsBefore,
    callsAfter,
  }
  console.log(
    `  quota spent ${lockoutMs / 1000} s before the day ended: ${day.requests} request(s) from the host meanwhile${shown ? ', the page said "quota"' : ''}; calls today ${callsBefore} before the day ended, ${callsAfter} after`,
  )
  return day
}

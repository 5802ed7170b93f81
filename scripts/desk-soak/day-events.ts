/**
 * The desk soak's trading day (scripts/desk-soak.ts): each event at its share of a cycle, from
 * an alert added and crossed to the daily quota spent before the day ends. A fault is timed until
 * prices are fresh again; what each event saw goes into the soak's record for the verdict.
 */
import type { Page } from 'playwright-core'
import type { SimServer } from '../../src/sim'
import type { BridgeClient } from '../../test/e2e/bridge-client'
import { rollTheDay, spendQuotaBeforeDayEnd, type DayRoll, type QuotaDay } from './day-ends'
import { freshAgain, pause, type Host } from './probes'
import type { Recovery } from './verdict'

/** The desk under soak: the simulator, the host it feeds, the page and a bridge beside it. */
export interface SoakDesk {
  sim: SimServer
  host: Host
  pid: number
  page: Page
  bridge: BridgeClient
  listId: string
  otherList: string
}

/** What the day's events saw, for the verdict (desk-soak/verdict.ts). */
export interface DayRecord {
  recoveries: Recovery[]
  /** Each day roll while streaming, and each day that ended with the host's quota spent. */
  dayRolls: DayRoll[]
  quotaDays: QuotaDay[]
  /** Per cycle: how many times the alert it crossed fired (must be 1). */
  alertFires: number[]
}

/** One event of the day: at `frac` of a cycle; returns ms until fresh again, or null. */
export interface DayEvent {
  frac: number
  name: string
  run: () => Promise<number | null>
}

/** How long each timed fault lasts in a cycle this long. */
export function faultLengths(cycleMs: number): {
  sleepMs: number
  stallMs: number
  lockoutMs: number
} {
  return {
    // A lunch-break laptop sleep: 60 s in a cycle of 15 minutes or more, shorter in the CI run.
    sleepMs: Math.round(Math.min(60_000, Math.max(3_000, cycleMs * 0.07))),
    stallMs: Math.round(Math.min(35_000, Math.max(10_000, cycleMs * 0.04))),
    // The key's quota runs out this long before the day ends: 60 s in a cycle of 25 minutes or more.
    lockoutMs: Math.round(Math.min(60_000, Math.max(8_000, cycleMs * 0.04))),
  }
}

/** Every event of a day, in the order of their share of the cycle. */
export function soakDay(desk: SoakDesk, record: DayRecord, cycleMs: number): DayEvent[] {
  return [
    ...alertEvents(desk, record),
    ...viewEvents(desk),
    ...listEvents(desk),
    ...faultEvents(desk, record, faultLengths(cycleMs)),
  ].sort((a, b) => a.frac - b.frac)
}

/** A once-alert added and crossed, the price let go, and at the end its fires counted. */
function alertEvents({ sim, bridge }: SoakDesk, record: DayRecord): DayEvent[] {
  let alertId: string | null = null
  const added = async (): Promise<null> => {
    const res = (await bridge.invoke('addAlert', {
      key: 'crypto:ETHUSDT',
      condition: { kind: 'above', price: 6400 },
      repeat: 'once',
      hysteresisPct: 0.2,
      cooldownSec: 0,
      expiresAt: null,
      note: 'soak',
    })) as { ok: boolean; result?: { id: string } }
    alertId = res.result?.id ?? null
    sim.pinPrice('crypto', 'ETHUSDT', 6500)
    return null
  }
  const removed = async (): Promise<null> => {
    // The once-alert crossed this cycle fired exactly once: its history lines.
    const now = (await bridge.invoke('getSnapshot')) as {
      result: { alertHistory: Array<{ ruleId: string }> }
    }
    record.alertFires.push(now.result.alertHistory.filter((a) => a.ruleId === alertId).length)
    if (alertId) await bridge.invoke('removeAlert', { id: alertId })
    alertId = null
    return null
  }
  return [
    { frac: 0.05, name: 'alert added and crossed', run: added },
    {
      frac: 0.1,
      name: 'price released',
      run: async () => (sim.pinPrice('crypto', 'ETHUSDT', null), null),
    },
    { frac: 0.9, name: 'alert removed', run: removed },
  ]
}

/** The chart and the strip opened and closed, and a switch to another list and back. */
function viewEvents({ page, host, bridge, listId, otherList }: SoakDesk): DayEvent[] {
  let strip: Page | null = null
  return [
    {
      frac: 0.15,
      name: 'chart opened',
      run: async () => {
        await page.locator('tbody tr[data-key="crypto:BTCUSDT"]').click()
        await page.keyboard.press('Enter')
        return null
      },
    },
    {
      frac: 0.2,
      name: 'chart closed',
      run: async () => (await page.keyboard.press('Escape'), null),
    },
    {
      frac: 0.35,
      name: 'strip opened',
      run: async () => {
        // In the page's own browser context: the strip rides on the same session.
        strip = await page.context().newPage()
        await strip.setViewportSize({ width: 900, height: 40 })
        await strip.goto(`${new URL(host.url).origin}/strip`)
        return null
      },
    },
    {
      frac: 0.55,
      name: 'strip closed',
      run: async () => (await (strip as Page | null)?.close(), (strip = null), null),
    },
    {
      frac: 0.8,
      name: 'list switched and back',
      run: async () => {
        await bridge.invoke('setActiveWatchlist', { id: otherList })
        await pause(2_000)
        await bridge.invoke('setActiveWatchlist', { id: listId })
        return null
      },
    },
  ]
}

/** A symbol added to the list and removed again. */
function listEvents({ bridge, listId }: SoakDesk): DayEvent[] {
  return [
    {
      frac: 0.3,
      name: 'symbol added',
      run: async () => (
        await bridge.invoke('addSymbols', { id: listId, inputs: ['crypto:TRXUSDT'] }),
        null
      ),
    },
    {
      frac: 0.4,
      name: 'symbol removed',
      run: async () => (
        await bridge.invoke('removeSymbol', { id: listId, key: 'crypto:TRXUSDT' }),
        null
      ),
    },
  ]
}

/** Dropped and half-open sockets, a sleep, a handshake stall, and both ends of the day. */
function faultEvents(
  { sim, page, pid }: SoakDesk,
  record: DayRecord,
  { sleepMs, stallMs, lockoutMs }: ReturnType<typeof faultLengths>,
): DayEvent[] {
  /**
   * A fault, then how long until prices are fresh again, timed from when the fault ends (the
   * process resumes, the service answers again). A half-open socket has no such moment: the
   * client must notice the silence, so its figure is the time to notice and is reported apart.
   */
  const fault =
    (name: string, act: () => Promise<void> | void, ends = true) =>
    async (): Promise<number> => {
      await act()
      const ms = await freshAgain(page, Date.now())
      record.recoveries.push({ fault: name, ms, ends })
      return ms
    }
  return [
    { frac: 0.25, name: 'sockets dropped', run: fault('drop', () => sim.faults.dropSockets()) },
    {
      frac: 0.45,
      name: 'half-open stall',
      run: fault('half-open', () => sim.faults.forgetSockets(), false),
    },
    {
      frac: 0.5,
      name: 'day rolled over',
      run: async () => (record.dayRolls.push(await rollTheDay(page, sim)), null),
    },
    {
      frac: 0.6,
      name: 'sleep',
      run: fault(`sleep ${sleepMs / 1000} s`, async () => {
        process.kill(pid, 'SIGSTOP')
        sim.faults.dropSockets()
        await pause(sleepMs)
        process.kill(pid, 'SIGCONT')
      }),
    },
    {
      frac: 0.7,
      name: 'handshake stall',
      run: fault(`stall ${stallMs / 1000} s`, async () => {
        sim.faults.stall(stallMs)
        sim.faults.dropSockets()
        await pause(stallMs)
      }),
    },
    {
      frac: 0.84,
      name: 'daily quota spent',
      run: async () => {
        const day = await spendQuotaBeforeDayEnd(page, sim, sim.keys.pro, lockoutMs)
        record.quotaDays.push(day)
        return day.freshMs
      },
    },
  ]
}

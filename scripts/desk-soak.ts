/**
 * A compressed week on the desk, measured from outside: `npm run soak -- --hours N`.
 *
 * The browser host (`tickdesk web`, the built CLI) against the simulator on loopback, opened in
 * Chromium, each cycle ("hour") carrying a trading day's events: a steady tick load, dropped
 * sockets, a half-open stall, a handshake stall, a sleep (SIGSTOP of the host), list edits, an
 * alert added, fired and removed, the strip opened and closed, the chart opened and closed, a
 * list switch, and the service's day roll-over twice: once with the stream up (every change % on
 * the page must be measured from the service's new previous close within 5 s), once with the
 * host's daily quota spent shortly before the day ends (the host must wait for the reset the
 * Retry-After names, sending at most 3 requests meanwhile, be fresh within 5 s after it, and its
 * status bar's "calls today" must start again).
 * The simulator's day ends on demand (sim.day, src/sim/market/trading-day.ts) while its timestamps stay
 * on the real clock. Samples, taken from outside: the page's JS heap after a forced GC and its DOM
 * nodes and event listeners (DevTools protocol), the host's PSS and open files (/proc), and the
 * sizes of the files it keeps. Each metric is judged by a robust line through the second half
 * of its samples (scripts/soak-trend.ts), memory in MB per hour with one allowance whatever the
 * run's length, written as a table and an SVG plot.
 *
 *   npm run soak -- --hours 0.04          2.4 minutes: every event of the day once (was CI's form)
 *   npm run soak -- --hours 2 --out docs/soak
 *
 * Not covered here: Electron's own processes (the tray and the strip window are tested against the
 * fake electron).
 */
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { findChromium, launchChromium } from '../test/e2e/chromium'
import { connectBridge, pageSession, type BridgeClient } from '../test/e2e/bridge-client'
import { startSimulator } from '../src/sim'
import {
  rollTheDay,
  spendQuotaBeforeDayEnd,
  type DayRoll,
  type QuotaDay,
} from './desk-soak/day-ends'
import {
  fileSizes,
  freshAgain,
  hostProc,
  pageCounters,
  pause,
  startHost,
  SYMBOLS,
} from './desk-soak/probes'
import { judgeSoak, type Recovery } from './desk-soak/verdict'

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN
  return Number.isFinite(v) && v > 0 ? v : fallback
}
function argText(name: string): string | null {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? (process.argv[i + 1] ?? null) : null
}

const hours = arg('hours', 0.05)
const cycleMs = Math.min(60 * 60_000, hours * 60 * 60_000)
const durationMs = hours * 60 * 60_000
const sampleMs = Math.max(5_000, Math.min(60_000, durationMs / 36))
const tickMs = arg('tick', 20)
const outDir = argText('out') ?? mkdtempSync(join(tmpdir(), 'tickdesk-soak-'))

interface Event {
  at: number
  name: string
  run: () => Promise<number | null>
}

async function main(): Promise<number> {
  const chromium = findChromium()
  if (chromium === null) {
    console.error('soak: no Chromium (apt-get install chromium or set TICKDESK_CHROMIUM)')
    return 1
  }
  mkdirSync(outDir, { recursive: true })
  const sim = await startSimulator({ port: 0, seed: 26, tickIntervalMs: tickMs })
  const host = await startHost(sim)
  const pid = host.child.pid as number
  const browser: Browser = await launchChromium(chromium)
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const cdp = await page.context().newCDPSession(page)
  await page.goto(host.url)
  await page.getByTestId('connection-state').waitFor({ timeout: 30_000 })
  // The launch code is spent by the page's visit: the bridge rides on the page's session.
  const bridge: BridgeClient = await connectBridge(host.url, { cookie: await pageSession(page) })
  const snap = (await bridge.invoke('getSnapshot')) as {
    ok: true
    result: { watchlists: Array<{ id: string; symbols: string[] }>; activeWatchlistId: string }
  }
  const listId = snap.result.activeWatchlistId
  const otherList = snap.result.watchlists.find((w) => w.id !== listId)?.id ?? listId
  for (const key of SYMBOLS) await bridge.invoke('addSymbols', { id: listId, inputs: [key] })

  let alertId: string | null = null
  /** Per cycle: how many times the alert it crossed fired (must be 1). */
  const alertFires: number[] = []
  let strip: Page | null = null
  const recoveries: Recovery[] = []
  /** Each day roll while streaming, and each day that ended with the host's quota spent. */
  const dayRolls: DayRoll[] = []
  const quotaDays: QuotaDay[] = []
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
      recoveries.push({ fault: name, ms, ends })
      return ms
    }
  // A lunch-break laptop sleep: 60 s in a cycle of 15 minutes or more, shorter in the CI run.
  const sleepMs = Math.round(Math.min(60_000, Math.max(3_000, cycleMs * 0.07)))
  const stallMs = Math.round(Math.min(35_000, Math.max(10_000, cycleMs * 0.04)))
  // The key's quota runs out this long before the day ends: 60 s in a cycle of 25 minutes or more.
  const lockoutMs = Math.round(Math.min(60_000, Math.max(8_000, cycleMs * 0.04)))
  const hostKey = sim.keys.pro
  const day: Array<Omit<Event, 'at'> & { frac: number }> = [
    {
      frac: 0.05,
      name: 'alert added and crossed',
      run: async () => {
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
      },
    },
    {
      frac: 0.1,
      name: 'price released',
      run: async () => (sim.pinPrice('crypto', 'ETHUSDT', null), null),
    },
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
    { frac: 0.25, name: 'sockets dropped', run: fault('drop', () => sim.faults.dropSockets()) },
    {
      frac: 0.3,
      name: 'symbol added',
      run: async () => (
        await bridge.invoke('addSymbols', { id: listId, inputs: ['crypto:TRXUSDT'] }),
        null
      ),
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
      frac: 0.4,
      name: 'symbol removed',
      run: async () => (
        await bridge.invoke('removeSymbol', { id: listId, key: 'crypto:TRXUSDT' }),
        null
      ),
    },
    {
      frac: 0.45,
      name: 'half-open stall',
      run: fault('half-open', () => sim.faults.forgetSockets(), false),
    },
    {
      frac: 0.5,
      name: 'day rolled over',
      run: async () => {
        dayRolls.push(await rollTheDay(page, sim))
        return null
      },
    },
    {
      frac: 0.55,
      name: 'strip closed',
      run: async () => (await (strip as Page | null)?.close(), (strip = null), null),
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
      frac: 0.8,
      name: 'list switched and back',
      run: async () => {
        await bridge.invoke('setActiveWatchlist', { id: otherList })
        await pause(2_000)
        await bridge.invoke('setActiveWatchlist', { id: listId })
        return null
      },
    },
    {
      frac: 0.84,
      name: 'daily quota spent',
      run: async () => {
        const day = await spendQuotaBeforeDayEnd(page, sim, hostKey, lockoutMs)
        quotaDays.push(day)
        return day.freshMs
      },
    },
    {
      frac: 0.9,
      name: 'alert removed',
      run: async () => {
        // The once-alert crossed this cycle fired exactly once: its history lines.
        const now = (await bridge.invoke('getSnapshot')) as {
          result: { alertHistory: Array<{ ruleId: string }> }
        }
        alertFires.push(now.result.alertHistory.filter((a) => a.ruleId === alertId).length)
        if (alertId) await bridge.invoke('removeAlert', { id: alertId })
        alertId = null
        return null
      },
    },
  ]
  const events: Event[] = []
  for (let start = 0; start < durationMs; start += cycleMs)
    for (const e of day)
      if (start + e.frac * cycleMs < durationMs) events.push({ ...e, at: start + e.frac * cycleMs })

  const started = Date.now()
  const samples: Array<{ t: number; v: number[] }> = []
  let nextSample = 0
  const take = async (): Promise<void> => {
    const t = (Date.now() - started) / 1000
    const p = await pageCounters(cdp)
    const h = hostProc(pid)
    const f = fileSizes(host.dir)
    // In the order of SAMPLE_NAMES (desk-soak/verdict.ts).
    samples.push({
      t,
      v: [
        p.heapMB,
        p.nodes,
        p.listeners,
        h.pssMB,
        h.anonMB,
        h.fds,
        f.cache ?? 0,
        f.alerts ?? 0,
        f.logs ?? 0,
      ],
    })
  }
  console.log(
    `soak: ${hours} h (${Math.round(durationMs / 60_000)} min), a cycle every ${Math.round(cycleMs / 60_000)} min, ${SYMBOLS.length} symbols, a tick every ${tickMs} ms; out: ${outDir}`,
  )
  while (Date.now() - started < durationMs) {
    const elapsed = Date.now() - started
    const due = events.shift()
    if (due && due.at <= elapsed) {
      const ms = await due.run()
      if (ms !== null)
        console.log(`  ${Math.round(elapsed / 1000)} s: ${due.name}: fresh again after ${ms} ms`)
    } else if (due) events.unshift(due)
    if (elapsed >= nextSample) {
      await take()
      nextSample += sampleMs
    }
    await pause(250)
  }
  await take()

  const verdict = judgeSoak({
    hours,
    tickMs,
    symbols: SYMBOLS.length,
    outDir,
    lockoutMs,
    samples,
    recoveries,
    dayRolls,
    quotaDays,
    alertFires,
    stats: sim.stats(),
  })

  bridge.close()
  await browser.close()
  host.child.kill('SIGTERM')
  await new Promise((r) => host.child.once('exit', r))
  await sim.close()
  return verdict === 'ok' ? 0 : 1
}

process.exitCode = await main()

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
import type { Browser, CDPSession } from 'playwright-core'
import { findChromium, launchChromium } from '../test/e2e/chromium'
import { connectBridge, pageSession } from '../test/e2e/bridge-client'
import { startSimulator } from '../src/sim'
import { faultLengths, soakDay, type DayRecord, type SoakDesk } from './desk-soak/day-events'
import { fileSizes, hostProc, pageCounters, pause, startHost, SYMBOLS } from './desk-soak/probes'
import { judgeSoak } from './desk-soak/verdict'

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

type Sample = { t: number; v: number[] }

/** The simulator, the host on it, the page in Chromium and a bridge on the page's session. */
async function setUpDesk(
  chromium: string,
): Promise<SoakDesk & { browser: Browser; cdp: CDPSession }> {
  const sim = await startSimulator({ port: 0, seed: 26, tickIntervalMs: tickMs })
  const host = await startHost(sim)
  const browser: Browser = await launchChromium(chromium)
  // A context of its own, not browser.newPage()'s: the strip opens a second page in it.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await context.newPage()
  const cdp = await page.context().newCDPSession(page)
  await page.goto(host.url)
  await page.getByTestId('connection-state').waitFor({ timeout: 30_000 })
  // The launch code is spent by the page's visit: the bridge rides on the page's session.
  const bridge = await connectBridge(host.url, { cookie: await pageSession(page) })
  const snap = (await bridge.invoke('getSnapshot')) as {
    ok: true
    result: { watchlists: Array<{ id: string; symbols: string[] }>; activeWatchlistId: string }
  }
  const listId = snap.result.activeWatchlistId
  const otherList = snap.result.watchlists.find((w) => w.id !== listId)?.id ?? listId
  for (const key of SYMBOLS) await bridge.invoke('addSymbols', { id: listId, inputs: [key] })
  const pid = host.child.pid as number
  return { sim, host, pid, page, bridge, listId, otherList, browser, cdp }
}

/** The day's events at their times, one day per cycle, up to the run's length. */
function schedule(desk: SoakDesk, record: DayRecord): Event[] {
  const day = soakDay(desk, record, cycleMs)
  const events: Event[] = []
  for (let start = 0; start < durationMs; start += cycleMs)
    for (const e of day)
      if (start + e.frac * cycleMs < durationMs) events.push({ ...e, at: start + e.frac * cycleMs })
  return events
}

/** One sample from outside, in the order of SAMPLE_NAMES (desk-soak/verdict.ts). */
async function sample(desk: SoakDesk, cdp: CDPSession, t: number): Promise<Sample> {
  const p = await pageCounters(cdp)
  const h = hostProc(desk.pid)
  const f = fileSizes(desk.host.dir)
  return {
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
  }
}

/** Runs each event when it is due and samples on the way, for the run's length. */
async function runEvents(events: Event[], take: (t: number) => Promise<void>): Promise<void> {
  const started = Date.now()
  let nextSample = 0
  while (Date.now() - started < durationMs) {
    const elapsed = Date.now() - started
    const due = events.shift()
    if (due && due.at <= elapsed) {
      const ms = await due.run()
      if (ms !== null)
        console.log(`  ${Math.round(elapsed / 1000)} s: ${due.name}: fresh again after ${ms} ms`)
    } else if (due) events.unshift(due)
    if (elapsed >= nextSample) {
      await take((Date.now() - started) / 1000)
      nextSample += sampleMs
    }
    await pause(250)
  }
  await take((Date.now() - started) / 1000)
}

async function tearDown(desk: SoakDesk & { browser: Browser }): Promise<void> {
  desk.bridge.close()
  await desk.browser.close()
  desk.host.child.kill('SIGTERM')
  await new Promise((r) => desk.host.child.once('exit', r))
  await desk.sim.close()
}

async function main(): Promise<number> {
  const chromium = findChromium()
  if (chromium === null) {
    console.error('soak: no Chromium (apt-get install chromium or set TICKDESK_CHROMIUM)')
    return 1
  }
  mkdirSync(outDir, { recursive: true })
  const desk = await setUpDesk(chromium)
  const record: DayRecord = { recoveries: [], dayRolls: [], quotaDays: [], alertFires: [] }
  const events = schedule(desk, record)
  const samples: Sample[] = []
  console.log(
    `soak: ${hours} h (${Math.round(durationMs / 60_000)} min), a cycle every ${Math.round(cycleMs / 60_000)} min, ${SYMBOLS.length} symbols, a tick every ${tickMs} ms; out: ${outDir}`,
  )
  await runEvents(events, async (t) => void samples.push(await sample(desk, desk.cdp, t)))
  const verdict = judgeSoak({
    hours,
    tickMs,
    symbols: SYMBOLS.length,
    outDir,
    lockoutMs: faultLengths(cycleMs).lockoutMs,
    samples,
    ...record,
    stats: desk.sim.stats(),
  })
  await tearDown(desk)
  return verdict === 'ok' ? 0 : 1
}

process.exitCode = await main()

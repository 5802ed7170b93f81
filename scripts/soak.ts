/**
 * Soak: a compressed trading session against the simulator (50 symbols, a tick every 5 ms) through
 * the real AppService, with a fault every few seconds (dropped sockets, silence, 429 bursts,
 * 502s, malformed frames, service down/up). Samples heap (after a forced GC) and active handles.
 *
 *   npm run soak -- --minutes 2          (tsx with --expose-gc is set up by this script itself)
 *
 * Fails (exit 1) when, after the warm-up, heap grew 5 % or more, timers or sockets kept growing,
 * the client held two sockets at once, or reconnects outnumbered the faults that cause them.
 * Prints a summary table, then one JSON line last.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAppService } from '../src/app/app-service'
import { memorySecretStore } from '../src/app/keys/memory-secret-store'
import { systemClock, type Clock, type TimerHandle } from '../src/core/clock'
import { startDemoService, startSimulator, type SimServer } from '../src/sim'
import { INSTRUMENTS } from '../src/sim/market/instruments'

// `--hours N`: the browser host in Chromium, measured from outside (scripts/desk-soak.ts).
if (process.argv.includes('--hours')) {
  await import('./desk-soak')
  process.exit()
}

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) {
  // Re-run under node --expose-gc with the tsx loader: heap figures without a forced GC are noise.
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', ...process.argv.slice(1)],
    { stdio: 'inherit' },
  )
  process.exit(run.status ?? 1)
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN
  return Number.isFinite(v) && v > 0 ? v : fallback
}

const minutes = arg('minutes', 2)
const symbolsWanted = arg('symbols', 50)
const tickMs = arg('tick', 5)
const durationMs = minutes * 60_000
const warmupMs = Math.max(10_000, durationMs * 0.25)
const sampleEveryMs = Math.max(2_000, Math.min(10_000, durationMs / 30))
const faultEveryMs = Math.max(4_000, durationMs / 15)
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** The system clock, counting the app's pending timers (ours are unref'd, so Node hides them). */
const pending = new Set<TimerHandle>()
const countingClock: Clock = {
  now: () => systemClock.now(),
  setTimeout: (fn, ms) => {
    const h: TimerHandle = systemClock.setTimeout(() => {
      pending.delete(h)
      fn()
    }, ms)
    pending.add(h)
    return h
  },
  clearTimeout: (h) => {
    if (h) pending.delete(h)
    systemClock.clearTimeout(h)
  },
}

interface Sample {
  t: number
  heapMB: number
  rssMB: number
  timers: number
  sockets: number
  other: number
}

function sample(t: number): Sample {
  gc?.()
  const m = process.memoryUsage()
  const res = process.getActiveResourcesInfo()
  const nodeTimers = res.filter((r) => r === 'Timeout' || r === 'Immediate').length
  const timers = pending.size + nodeTimers
  const sockets = res.filter((r) => r === 'TCPSocketWrap' || r === 'TCPWRAP').length
  return {
    t,
    heapMB: m.heapUsed / 2 ** 20,
    rssMB: m.rss / 2 ** 20,
    timers,
    sockets,
    other: res.length - nodeTimers - sockets,
  }
}

type Fault = { name: string; reconnects: boolean; run: (sim: SimServer) => Promise<void> | void }
const FAULTS: Fault[] = [
  { name: 'drop sockets', reconnects: true, run: (s) => s.faults.dropSockets() },
  {
    name: '429 burst (Retry-After 2 s)',
    reconnects: false,
    run: (s) =>
      s.faults.failNext({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSec: 2, times: 3 }),
  },
  { name: 'malformed x300', reconnects: false, run: (s) => s.faults.malformed(300) },
  {
    name: '502 burst',
    reconnects: false,
    run: (s) => s.faults.failNext({ status: 502, code: 'UPSTREAM_UNAVAILABLE', times: 4 }),
  },
  {
    name: 'down 3 s, up',
    reconnects: true,
    run: async (s) => {
      await s.faults.down()
      await pause(3_000)
      await s.faults.up()
    },
  },
  { name: 'silence 32 s', reconnects: true, run: (s) => s.faults.silence(32_000) },
]

/** The simulator, the app on it with the soak's list and five alerts, and its bridge counted. */
async function startSession() {
  const sim = await startSimulator({ seed: 17, tickIntervalMs: tickMs, heartbeatMs: 5_000 })
  const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-soak-'))
  const app = await createAppService({
    dataDir,
    env: { TICKDESK_BASE_URL: sim.url, TICKDESK_PLAN: 'pro' },
    secretStore: memorySecretStore(sim.keys.pro),
    demo: () => startDemoService(),
    clock: countingClock,
  })
  const symbols = INSTRUMENTS.filter((i) => i.market !== 'agri')
    .slice(0, symbolsWanted)
    .map((i) => `${i.market}:${i.symbol}`)
  await app.invoke('importWatchlists', {
    format: 'json',
    text: JSON.stringify({ name: 'Soak', symbols }),
  })
  const bridge = { batches: 0, patches: 0 }
  app.subscribe((e) => {
    if (e.type !== 'quotes') return
    bridge.batches++
    bridge.patches += e.frame.keys.length
  })
  for (const k of symbols.slice(0, 5))
    await app
      .invoke('addAlert', { key: k, condition: { kind: 'pctChange', pct: 0.5, windowSec: 60 } })
      .catch(() => undefined)
  return { sim, dataDir, app, symbols, bridge }
}

/** The session's length: a fault every faultEveryMs (none in the last 20 s), samples between. */
async function runFaults(sim: SimServer) {
  const t0 = Date.now()
  const samples: Sample[] = [sample(0)]
  const faultsRun: string[] = []
  let reconnectingFaults = 0
  let nextFault = t0 + faultEveryMs
  let nextSample = t0 + sampleEveryMs
  let f = 0
  while (Date.now() - t0 < durationMs) {
    await pause(250)
    const now = Date.now()
    if (now >= nextFault && now - t0 < durationMs - 20_000) {
      const fault = FAULTS[f++ % FAULTS.length] as Fault
      faultsRun.push(fault.name)
      if (fault.reconnects) reconnectingFaults++
      void fault.run(sim)
      nextFault = now + faultEveryMs
    }
    if (now >= nextSample) {
      samples.push(sample(now - t0))
      nextSample = now + sampleEveryMs
    }
  }
  await pause(2_000)
  samples.push(sample(Date.now() - t0))
  return { samples, faultsRun, reconnectingFaults }
}

type Session = Awaited<ReturnType<typeof startSession>>
type Run = Awaited<ReturnType<typeof runFaults>>

/** What the app and the service say at the end, read before both close. */
async function endSession({ sim, dataDir, app, symbols }: Session) {
  const engineStats = app.feed.engine.streamStats()
  const simStats = sim.stats()
  const status = app.feed.engine.status()
  const priced = symbols.filter((k) => app.feed.engine.quotes.get(k)?.last != null).length
  await app.close()
  await sim.close()
  rmSync(dataDir, { recursive: true, force: true })
  return { engineStats, simStats, status, priced }
}

type End = Awaited<ReturnType<typeof endSession>>

/** Growth after the warm-up (the median of the first three samples against the last three). */
function growthOf(samples: readonly Sample[]) {
  const after = samples.filter((s) => s.t >= warmupMs)
  const base = after.slice(0, 3)
  const tail = after.slice(-3)
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN
  const heapBase = median(base.map((s) => s.heapMB))
  const heapEnd = median(tail.map((s) => s.heapMB))
  const heapGrowthPct = ((heapEnd - heapBase) / heapBase) * 100
  const timersGrowth = median(tail.map((s) => s.timers)) - median(base.map((s) => s.timers))
  const socketsGrowth = median(tail.map((s) => s.sockets)) - median(base.map((s) => s.sockets))
  return { heapBase, heapEnd, heapGrowthPct, timersGrowth, socketsGrowth }
}

type Growth = ReturnType<typeof growthOf>

function checksOf(g: Growth, run: Run, end: End, symbols: number) {
  return {
    heapGrowthUnder5Pct: g.heapGrowthPct < 5,
    timersNotGrowing: g.timersGrowth <= 2,
    socketsNotGrowing: g.socketsGrowth <= 2,
    oneSocketAtATime: end.simStats.maxWsOpen <= 1,
    reconnectsBounded: end.engineStats.reconnects <= reconnectBound(run),
    everySymbolPriced: end.priced === symbols,
  }
}

const reconnectBound = (run: Run): number => run.reconnectingFaults * 3 + 2

/** The samples' table, then the summary a reader checks, one line each. */
function printTables(
  session: Session,
  run: Run,
  end: End,
  g: Growth,
  checks: Record<string, boolean>,
): void {
  const { symbols, bridge } = session
  const { engineStats, simStats, status, priced } = end
  console.log('\n t(s)  heap MB   rss MB  timers  sockets  other')
  for (const s of run.samples)
    console.log(
      `${String(Math.round(s.t / 1000)).padStart(5)} ${s.heapMB.toFixed(2).padStart(8)} ${s.rssMB.toFixed(1).padStart(8)} ${String(s.timers).padStart(7)} ${String(s.sockets).padStart(8)} ${String(s.other).padStart(6)}`,
    )
  const rows: [string, string][] = [
    ['duration', `${minutes} min, ${symbols.length} symbols, tick every ${tickMs} ms`],
    ['faults injected', `${run.faultsRun.length} (${[...new Set(run.faultsRun)].join(', ')})`],
    [
      'heap after warm-up',
      `${g.heapBase.toFixed(2)} -> ${g.heapEnd.toFixed(2)} MB (${g.heapGrowthPct.toFixed(2)} %)`,
    ],
    ['timers / sockets growth', `${g.timersGrowth} / ${g.socketsGrowth}`],
    [
      'stream',
      `${engineStats.connects} connects, ${engineStats.reconnects} reconnects (bound ${reconnectBound(run)}), ${engineStats.ticksIn} ticks, ${engineStats.malformed} malformed`,
    ],
    [
      'service saw',
      `${simStats.requests} requests, ${simStats.http429} x 429, max ${simStats.maxWsOpen} socket(s) open`,
    ],
    ['bridge', `${bridge.batches} quote batches, ${bridge.patches} patches`],
    ['end state', `${status.state}, ${priced}/${symbols.length} symbols priced`],
    ...Object.entries(checks).map(([k, v]): [string, string] => [k, v ? 'ok' : 'FAIL']),
  ]
  console.log('')
  for (const [k, v] of rows) console.log(`${k.padEnd(24)} ${v}`)
}

async function main(): Promise<number> {
  const session = await startSession()
  const run = await runFaults(session.sim)
  const end = await endSession(session)
  const g = growthOf(run.samples)
  const checks = checksOf(g, run, end, session.symbols.length)
  printTables(session, run, end, g, checks)
  const passed = Object.values(checks).every(Boolean)
  console.log(
    JSON.stringify({
      soak: passed ? 'ok' : 'failed',
      minutes,
      symbols: session.symbols.length,
      tickMs,
      faults: run.faultsRun.length,
      heapBaseMB: +g.heapBase.toFixed(2),
      heapEndMB: +g.heapEnd.toFixed(2),
      heapGrowthPct: +g.heapGrowthPct.toFixed(2),
      timersGrowth: g.timersGrowth,
      socketsGrowth: g.socketsGrowth,
      reconnects: end.engineStats.reconnects,
      ticksIn: end.engineStats.ticksIn,
      requests: end.simStats.requests,
      http429: end.simStats.http429,
      maxWsOpen: end.simStats.maxWsOpen,
      checks,
    }),
  )
  return passed ? 0 : 1
}

process.exitCode = await main()

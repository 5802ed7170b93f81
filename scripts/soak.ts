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

async function main(): Promise<number> {
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
  let batches = 0
  let patches = 0
  app.subscribe((e) => {
    if (e.type !== 'quotes') return
    batches++
    patches += e.frame.keys.length
  })
  for (const k of symbols.slice(0, 5))
    await app
      .invoke('addAlert', { key: k, condition: { kind: 'pctChange', pct: 0.5, windowSec: 60 } })
      .catch(() => undefined)

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

  const engineStats = app.feed.engine.streamStats()
  const simStats = sim.stats()
  const status = app.feed.engine.status()
  const priced = symbols.filter((k) => app.feed.engine.quotes.get(k)?.last != null).length
  await app.close()
  await sim.close()
  rmSync(dataDir, { recursive: true, force: true })

  const after = samples.filter((s) => s.t >= warmupMs)
  const base = after.slice(0, 3)
  const tail = after.slice(-3)
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN
  const heapBase = median(base.map((s) => s.heapMB))
  const heapEnd = median(tail.map((s) => s.heapMB))
  const heapGrowthPct = ((heapEnd - heapBase) / heapBase) * 100
  const timersGrowth = median(tail.map((s) => s.timers)) - median(base.map((s) => s.timers))
  const socketsGrowth = median(tail.map((s) => s.sockets)) - median(base.map((s) => s.sockets))
  const reconnectBound = reconnectingFaults * 3 + 2
  const checks = {
    heapGrowthUnder5Pct: heapGrowthPct < 5,
    timersNotGrowing: timersGrowth <= 2,
    socketsNotGrowing: socketsGrowth <= 2,
    oneSocketAtATime: simStats.maxWsOpen <= 1,
    reconnectsBounded: engineStats.reconnects <= reconnectBound,
    everySymbolPriced: priced === symbols.length,
  }

  console.log('\n t(s)  heap MB   rss MB  timers  sockets  other')
  for (const s of samples)
    console.log(
      `${String(Math.round(s.t / 1000)).padStart(5)} ${s.heapMB.toFixed(2).padStart(8)} ${s.rssMB.toFixed(1).padStart(8)} ${String(s.timers).padStart(7)} ${String(s.sockets).padStart(8)} ${String(s.other).padStart(6)}`,
    )
  const rows: [string, string][] = [
    ['duration', `${minutes} min, ${symbols.length} symbols, tick every ${tickMs} ms`],
    ['faults injected', `${faultsRun.length} (${[...new Set(faultsRun)].join(', ')})`],
    [
      'heap after warm-up',
      `${heapBase.toFixed(2)} -> ${heapEnd.toFixed(2)} MB (${heapGrowthPct.toFixed(2)} %)`,
    ],
    ['timers / sockets growth', `${timersGrowth} / ${socketsGrowth}`],
    [
      'stream',
      `${engineStats.connects} connects, ${engineStats.reconnects} reconnects (bound ${reconnectBound}), ${engineStats.ticksIn} ticks, ${engineStats.malformed} malformed`,
    ],
    [
      'service saw',
      `${simStats.requests} requests, ${simStats.http429} x 429, max ${simStats.maxWsOpen} socket(s) open`,
    ],
    ['bridge', `${batches} quote batches, ${patches} patches`],
    ['end state', `${status.state}, ${priced}/${symbols.length} symbols priced`],
    ...Object.entries(checks).map(([k, v]): [string, string] => [k, v ? 'ok' : 'FAIL']),
  ]
  console.log('')
  for (const [k, v] of rows) console.log(`${k.padEnd(24)} ${v}`)
  const passed = Object.values(checks).every(Boolean)
  console.log(
    JSON.stringify({
      soak: passed ? 'ok' : 'failed',
      minutes,
      symbols: symbols.length,
      tickMs,
      faults: faultsRun.length,
      heapBaseMB: +heapBase.toFixed(2),
      heapEndMB: +heapEnd.toFixed(2),
      heapGrowthPct: +heapGrowthPct.toFixed(2),
      timersGrowth,
      socketsGrowth,
      reconnects: engineStats.reconnects,
      ticksIn: engineStats.ticksIn,
      requests: simStats.requests,
      http429: simStats.http429,
      maxWsOpen: simStats.maxWsOpen,
      checks,
    }),
  )
  return passed ? 0 : 1
}

process.exitCode = await main()

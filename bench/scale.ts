import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { planBudgetOnPlan } from '../src/core/feed/budget-preview'
import { PRIORITY } from '../src/core/feed/feed-planner'
import { ensureDataDir } from '../src/core/persistence/data-dir'
import { isQuiet } from '../src/core/poll/session-pacing'
import { openDataStores } from '../src/core/persistence/stores'
import { parseSymbolKey, type Plan } from '../src/shared/markets/market'
import { startSimulator, type SimServer } from '../src/sim'
import { SYNTHETIC_LETTER, type SimMarket } from '../src/sim/market/instruments'
import { sleep } from './chromium-page'
import { profileArgs, spawnHost } from './render/processes'
import { TreeMeter } from './render/proc-stats'
import {
  atMost,
  median,
  percentile,
  report,
  round,
  type BenchContext,
  type BenchResult,
  type BenchRow,
} from './stats'

/**
 * scale: what Tickdesk costs as the work grows, 10 to 5000 symbols over 1 to 50 watchlists on
 * each plan, against the simulator (its generated universe: bench symbols are ZC00001-style).
 * The host is the built `tickdesk web` process (the browser host: app service, engine, bridge;
 * no page attached, so no list is on screen and every symbol has the same priority), started on
 * a data folder holding the lists. Everything is measured from outside:
 *   - polled freshness from the service's side: every second, for each symbol no socket is
 *     subscribed to and whose market trades then, now minus when a REST quote answer last
 *     carried it (the host reads it a loopback hop later);
 *   - host CPU (utime + stime) and PSS (smaps_rollup) from /proc of the host's process tree;
 *   - boundMs: the median polled age the spec's rules allow for that watch, by the code the
 *     budget preview uses (core/feed/budget-preview.ts planBudgetOnPlan: stream cap, 90 % of RPM,
 *     batches of 50 per endpoint family, the poller's pacing), printed beside the measurement.
 * Default: the four sizes on their natural plans, 30 s each after warm-up (about 3 min); --full:
 * every size on every plan (Free at 5000 symbols excepted: one round takes ~4 min), 120 s each.
 * BENCH_SCALE_SYMBOLS=5000 runs only the cases of that size; BENCH_HOST_PROF=dir makes the host
 * write a V8 CPU profile there (main thread and the worker the host runs in).
 */
interface ScaleCase {
  symbols: number
  lists: number
  plan: Plan
}

const SIZES: Array<[symbols: number, lists: number]> = [
  [10, 1],
  [100, 5],
  [1000, 20],
  [5000, 50],
]
const PLANS: Plan[] = ['free', 'growth', 'pro', 'enterprise']

function cases(full: boolean): ScaleCase[] {
  const all = full
    ? PLANS.flatMap((plan) =>
        SIZES.filter(([symbols]) => !(plan === 'free' && symbols > 1000)).map(
          ([symbols, lists]) => ({ symbols, lists, plan }),
        ),
      )
    : SIZES.map(([symbols, lists], i) => ({ symbols, lists, plan: PLANS[i] as Plan }))
  const only = Number(process.env.BENCH_SCALE_SYMBOLS ?? NaN)
  return Number.isFinite(only) ? all.filter((c) => c.symbols === only) : all
}

/** A trader's mix, interleaved so every list holds some of each: 40 % coins, 10 % perpetuals. */
const MIX: SimMarket[] = [
  'crypto',
  'crypto',
  'crypto',
  'crypto',
  'usdt-futures',
  'fx',
  'hk',
  'cn',
  'index',
  'commodity',
]

export function benchKeys(n: number): string[] {
  const counts = new Map<SimMarket, number>()
  return Array.from({ length: n }, (_, i) => {
    const market = MIX[i % MIX.length] as SimMarket
    const k = (counts.get(market) ?? 0) + 1
    counts.set(market, k)
    return `${market}:Z${SYNTHETIC_LETTER[market]}${String(k).padStart(5, '0')}`
  })
}

interface CaseResult {
  symbols: number
  lists: number
  plan: Plan
  polled: number
  /** Polled symbols whose market was closed at the end of the window: not in the median. */
  quiet: number
  pollMedianMs: number | null
  pollP95Ms: number | null
  boundMs: number | null
  hostCpuPct: number
  hostPssMB: number
  /** Quote and kline calls a second the host made in the window (the service's count). */
  restPerSec: number
  /** The calls a second the budget preview counts for this watch (every market open). */
  budgetPerSec: number
  /** Symbols those calls named, on average. */
  symbolsPerCall: number
  http429: number
  windowS: number
}

export async function scaleBench(ctx: BenchContext): Promise<BenchResult> {
  const bin = fileURLToPath(new URL('../bin/tickdesk.js', import.meta.url))
  const built = existsSync(fileURLToPath(new URL('../out/cli/tickdesk.js', import.meta.url)))
  const out: CaseResult[] = []
  for (const c of cases(ctx.full)) {
    const r = await runCase(ctx, bin, c)
    ctx.log(
      `scale ${c.symbols} symbols / ${c.lists} lists / ${c.plan}: polled median ${r.pollMedianMs ?? '-'} ms (bound ${r.boundMs ?? '-'}), host CPU ${r.hostCpuPct}% PSS ${r.hostPssMB} MB, ${r.restPerSec} calls/s of ${r.symbolsPerCall} symbols (budget ${r.budgetPerSec}/s), 429s ${r.http429}, ${r.quiet} polled in closed markets left out`,
    )
    out.push(r)
  }
  const host = built
    ? 'built CLI'
    : 'CLI from sources through tsx (npm run build for the shipped figures)'
  const rows: BenchRow[] = []
  for (const r of out) {
    const label = `${r.symbols} symbols / ${r.lists} lists / ${r.plan}`
    if (r.pollMedianMs !== null && r.boundMs !== null) {
      rows.push(
        atMost(
          `${label}: polled median / bound`,
          round(r.pollMedianMs / r.boundMs, 2),
          'x',
          1.15,
          `${r.pollMedianMs} ms against ${r.boundMs} ms, p95 ${r.pollP95Ms} ms, ${r.polled} polled, ${r.quiet} of them in closed markets left out`,
        ),
      )
    } else rows.push(report(`${label}: nothing polled (all streamed)`, 0, 'polled'))
    rows.push(
      report(`${label}: host CPU`, r.hostCpuPct, '% of a core', `${r.windowS} s, ${host}`),
      r.symbols >= 5000
        ? atMost(`${label}: host PSS`, r.hostPssMB, 'MB', 120)
        : report(`${label}: host PSS`, r.hostPssMB, 'MB'),
      atMost(`${label}: HTTP 429`, r.http429, 'responses', 0),
    )
  }
  return { name: 'scale', rows, json: out.map((r) => ({ ...r })) }
}

const sumValues = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0)

/** A data folder holding the case's lists, and an empty page for `tickdesk web` to serve. */
async function caseDataDir(c: ScaleCase, keys: readonly string[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-bench-scale-'))
  // `tickdesk web` serves a page; none is opened here, an empty one is enough.
  const pageDir = join(dataDir, 'page')
  const stores = openDataStores(await ensureDataDir(join(dataDir, 'data')))
  const perList = Math.ceil(c.symbols / c.lists)
  await stores.watchlists.save({
    watchlists: Array.from({ length: c.lists }, (_, i) => ({
      id: `l${i}`,
      name: `List ${i + 1}`,
      symbols: keys.slice(i * perList, (i + 1) * perList),
    })),
    activeId: 'l0',
  })
  await ensureDataDir(pageDir)
  writeFileSync(join(pageDir, 'index.html'), '<!doctype html><title>bench</title>')
  return { dataDir, pageDir }
}

/** Until every polled symbol was answered once (one round), then a few seconds to settle. */
async function warmUp(sim: SimServer, polledNow: () => string[], round1: number): Promise<void> {
  const warmUntil = Date.now() + Math.max(20_000, 3 * round1)
  while (Date.now() < warmUntil) {
    await sleep(1000)
    const served = sim.servedAt()
    if (polledNow().every((k) => served.has(k))) break
  }
  await sleep(Math.max(5_000, Math.min(round1, 30_000)))
}

/** Each polled symbol's age a second over the window (the host's CPU sampled beside it). */
async function measureAges(
  sim: SimServer,
  polledNow: () => string[],
  meter: TreeMeter,
  windowS: number,
) {
  // The bound assumes every market trades; a closed one is asked every ~5 min by design
  // (session-pacing.ts), so its symbols are left out of the median, counted apart.
  const quietNow = (key: string, now: number): boolean => {
    const ref = parseSymbolKey(key)
    return ref !== null && isQuiet(ref.market, ref.symbol, now)
  }
  const ages: number[] = []
  let polledCount = 0
  let quietCount = 0
  const endAt = Date.now() + windowS * 1000
  while (Date.now() < endAt) {
    await sleep(1000)
    meter.sample()
    const now = Date.now()
    const served = sim.servedAt()
    const polled = polledNow()
    polledCount = polled.length
    quietCount = 0
    for (const k of polled) {
      if (quietNow(k, now)) {
        quietCount++
        continue
      }
      const at = served.get(k)
      if (at !== undefined) ages.push(now - at)
    }
  }
  return { ages, polledCount, quietCount }
}

async function runCase(ctx: BenchContext, bin: string, c: ScaleCase): Promise<CaseResult> {
  const keys = benchKeys(c.symbols)
  const bound = planBudgetOnPlan(
    c.plan,
    keys.map((key) => ({ key, priority: PRIORITY.other })),
  )
  const { dataDir, pageDir } = await caseDataDir(c, keys)
  const sim: SimServer = await startSimulator({ seed: 5 })
  const host = await spawnHost(
    [...profileArgs(), bin, 'web', '--port', '0'],
    {
      ...process.env,
      BROWSER: 'none',
      TICKDESK_BASE_URL: sim.url,
      TICKDESK_API_KEY: sim.keys[c.plan],
      TICKDESK_PLAN: c.plan,
      TICKDESK_DATA_DIR: join(dataDir, 'data'),
      TICKDESK_RENDERER_DIR: pageDir,
    },
    /Tickdesk is running at (http:\S+)/,
  )
  try {
    const polledNow = (): string[] => {
      const streamed = sim.streamedKeys()
      return keys.filter((k) => !streamed.has(k))
    }
    await warmUp(sim, polledNow, bound.pollEveryMs ?? 0)
    const windowS = ctx.full ? 120 : 30
    const meter = new TreeMeter(host.child.pid ?? 0)
    const before = sim.stats()
    meter.start()
    const { ages, polledCount, quietCount } = await measureAges(sim, polledNow, meter, windowS)
    const cpu = meter.stop()
    const after = sim.stats()
    const calls = after.restRequests - before.restRequests
    const named = sumValues(after.symbolAsks) - sumValues(before.symbolAsks)
    return {
      ...c,
      polled: polledCount,
      quiet: quietCount,
      pollMedianMs: ages.length > 0 ? round(median(ages), 0) : null,
      pollP95Ms: ages.length > 0 ? round(percentile(ages, 95), 0) : null,
      boundMs: bound.pollMedianBoundMs,
      hostCpuPct: round(cpu.cpuPct),
      hostPssMB: round(cpu.maxPssMB),
      restPerSec: round(calls / windowS),
      budgetPerSec: round(bound.requestsPerMinute / 60),
      symbolsPerCall: calls > 0 ? round(named / calls) : 0,
      // Start-up included.
      http429: sim.stats().http429,
      windowS,
    }
  } finally {
    await host.stop()
    await sim.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

import { MarketEngine } from '../../src/core/engine/engine'
import { deriveStreamUrl } from '../../src/core/engine/engine-config'
import type { Market } from '../../src/shared/markets/market'
import { startSimulator, type SimOptions, type SimServer } from '../../src/sim'
import { INSTRUMENTS } from '../../src/sim/market/instruments'
import { DIALECTS, type Dialect } from '../../src/sim/dialects'
import { seededRandom } from '../../src/util/random'
import { clockAt, WEEKDAY_AFTERNOON_UTC } from '../../src/util/testing/clock-at'
import { sleep } from '../chromium-page'
import {
  atMost,
  median,
  percentile,
  report,
  round,
  type BenchContext,
  type BenchResult,
  type BenchRow,
} from '../stats'

/**
 * freshness: the Free plan (30 RPM, 1 socket, 10 streamed symbols) watching the 60-symbol mix on
 * the simulator, in real time: 32 crypto, 6 USDT-M perpetuals and 22 multi-market symbols
 * (8 FX, 6 commodities, 8 indices); 10 streamed, 50 polled. Default 60 s measured after 10 s of
 * start-up (labelled), --full 3 minutes. Every 500 ms each shown price's age is read from the
 * simulator's side: now less when the simulator last served that very price for that symbol
 * (its record of every REST row and push, served-prices.ts), filed under the row's source (stream
 * or poll); a shown price it never served in its record counts as wrong. The simulator's own
 * counters give the 429s (and 401s standing for them), the requests in any 60 s window as the
 * service would count them (spec: Limits), and the most symbols the key's socket held at once,
 * trials under unknown names included.
 */
const MIX: Array<[Market, number]> = [
  ['crypto', 32],
  ['usdt-futures', 6],
  ['fx', 8],
  ['commodity', 6],
  ['index', 8],
]
const PLAN_RPM = 30

/** Crypto first, as a trader's list would start: the first 10 take the Free plan's stream slots. */
export function pickFreshnessSymbols(): string[] {
  const out: string[] = []
  for (const [market, count] of MIX) {
    const symbols = INSTRUMENTS.filter((i) => i.market === market).slice(0, count)
    if (symbols.length < count)
      throw new Error(`the simulator lists only ${symbols.length} ${market}`)
    out.push(...symbols.map((i) => `${market}:${i.symbol}`))
  }
  return out
}

interface FreshCase {
  name: string
  label: string
  dialect?: Dialect
  behaviour?: SimOptions['behaviour']
  shuffle?: number
}

/**
 * MIX in its listed order, on the simulator's two ways of naming a push's market:
 * its pushes in the client's words, and in the service's own ("spot", "futures_usdt"), which a
 * client matches by symbol only: a coin and its perpetual streamed under one name then collide.
 * --full adds the same mix shuffled (the plan must not depend on the order).
 */
function cases(full: boolean): FreshCase[] {
  const out: FreshCase[] = [
    { name: 'issueOrder', label: 'issue order' },
    {
      name: 'serviceWords',
      label: "issue order, pushes name markets in the service's words",
      dialect: { ...DIALECTS.typed, pushMarkets: 'service' },
    },
    // The stream knows markets only by its own words; ours are refused or left silent.
    {
      name: 'serviceNamesRefused',
      label: 'stream refuses our market names',
      behaviour: { marketNames: 'service', unknownMarket: 'refuse' },
    },
    {
      name: 'serviceNamesSilent',
      label: 'stream acks our market names and stays silent',
      behaviour: { marketNames: 'service', unknownMarket: 'silent' },
    },
    // Perpetuals under a word no client guesses, acked and silent under any other.
    {
      name: 'perpsOwnName',
      label: 'stream knows perpetuals by a word of its own',
      behaviour: {
        marketNames: 'service',
        unknownMarket: 'silent',
        marketWords: { 'usdt-futures': 'linear_swap' },
      },
    },
    // Pushes in a common exchange's 24-hour ticker: `p` is the change, `c` the price.
    {
      name: 'ticker24h',
      label: 'pushes as the 24-hour ticker, figures as strings',
      behaviour: { push: { layout: 'ticker24h', pushMarkets: 'none' } },
    },
  ]
  if (full) out.push({ name: 'shuffled', label: 'shuffled order', shuffle: 7 })
  // FRESHNESS_CASES=perpsOwnName,ticker24h runs those cases only (a look at one case).
  const only = process.env.FRESHNESS_CASES?.split(',').filter((n) => n !== '')
  return only === undefined || only.length === 0 ? out : out.filter((c) => only.includes(c.name))
}

/**
 * One look from the simulator's side: each shown price's age (now less when the simulator last
 * served that price for the symbol), by the row's source; a price it has no record of serving
 * counts as wrong. A row with no price yet, or from the cache, is not a sample.
 */
function sample(
  sim: SimServer,
  engine: MarketEngine,
  keys: readonly string[],
  now: number,
): { stream: number[]; poll: number[]; wrong: number } {
  const out = { stream: [] as number[], poll: [] as number[], wrong: 0 }
  for (const k of keys) {
    const q = engine.quotes.get(k)
    if (q === undefined || q.last === null || q.source === 'cache') continue
    const at = sim.lastServedAt(k, q.last, now)
    if (at === null) {
      out.wrong++
      continue
    }
    if (q.source === 'stream') out.stream.push(now - at)
    else out.poll.push(now - at)
  }
  return out
}

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const random = seededRandom(seed)
  const out = [...list]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

export async function freshnessBench(ctx: BenchContext): Promise<BenchResult> {
  const rows: BenchRow[] = []
  const json: Record<string, unknown> = {}
  for (const c of cases(ctx.full)) {
    const r = await runCase(ctx, c)
    rows.push(...r.rows)
    // The first case keeps the flat keys earlier results used.
    if (Object.keys(json).length === 0) Object.assign(json, r.json)
    json[c.name] = r.json
  }
  return { name: 'freshness', rows, json }
}

/** What one case saw over its window: ages by source, wrong prices, the request counts. */
interface Watched {
  streamAges: number[]
  pollAges: number[]
  requestsAt: Array<{ t: number; n: number }>
  maxStreamed: number
  wrong: number
}

/** The engine on the Free plan watching the mix: a look every 500 ms after the warm-up. */
async function watchCase(
  c: FreshCase,
  sim: SimServer,
  clock: ReturnType<typeof clockAt>,
  seconds: { warmupS: number; windowS: number },
): Promise<Watched & { keys: string[] }> {
  const key = sim.keys.free
  const config = { baseUrl: sim.url, streamUrl: deriveStreamUrl(sim.url), apiKey: key }
  const engine = new MarketEngine(
    { ...config, plan: 'free', rpm: PLAN_RPM, demo: false },
    { clock },
  )
  const keys =
    c.shuffle === undefined ? pickFreshnessSymbols() : shuffled(pickFreshnessSymbols(), c.shuffle)
  const w: Watched = { streamAges: [], pollAges: [], requestsAt: [], maxStreamed: 0, wrong: 0 }
  try {
    for (const k of keys) engine.watch(k)
    engine.start()
    const t0 = clock.now()
    w.requestsAt.push({ t: t0, n: 0 })
    const endAt = t0 + (seconds.warmupS + seconds.windowS) * 1000
    while (clock.now() < endAt) {
      await sleep(500)
      const now = clock.now()
      w.requestsAt.push({ t: now, n: sim.stats().byKey[key]?.requests ?? 0 })
      if (now - t0 < seconds.warmupS * 1000) continue
      const seen = sample(sim, engine, keys, now)
      w.streamAges.push(...seen.stream)
      w.pollAges.push(...seen.poll)
      w.wrong += seen.wrong
      w.maxStreamed = Math.max(w.maxStreamed, seen.stream.length)
    }
  } finally {
    await engine.stop()
  }
  return { ...w, keys }
}

/** Peak requests in any 60 s window, start-up burst included. */
function peakRequests(requestsAt: ReadonlyArray<{ t: number; n: number }>): number {
  let peak = 0
  for (const a of requestsAt) {
    const b = [...requestsAt].reverse().find((x) => x.t <= a.t + 60_000)
    if (b) peak = Math.max(peak, b.n - a.n)
  }
  return peak
}

/** One case's rows, against the Free plan's bounds. */
function caseRows(
  w: Watched & { keys: string[] },
  stats: ReturnType<SimServer['stats']>,
  key: string,
  label: string,
): BenchRow[] {
  const peak = peakRequests(w.requestsAt)
  return [
    atMost(
      'streamed quote age p95',
      round(percentile(w.streamAges, 95), 0),
      'ms',
      1000,
      `${w.maxStreamed} symbols streamed, ${label}`,
    ),
    atMost(
      'polled quote age median',
      round(median(w.pollAges), 0),
      'ms',
      2_600,
      `${w.keys.length - w.maxStreamed} polled`,
    ),
    report('polled quote age p95', round(percentile(w.pollAges, 95), 0), 'ms'),
    atMost('HTTP 429 from the service', stats.http429, 'responses', 0),
    atMost('over-limit refusals (429, or 401 with a 429 code)', stats.overLimit, 'responses', 0),
    atMost(
      'shown prices the service never served',
      w.wrong,
      'samples',
      0,
      'held against its record of every price served',
    ),
    atMost(
      'most symbols the socket held',
      stats.byKey[key]?.maxSubscribed ?? 0,
      'symbols',
      10,
      'trials under unknown names included (Free cap 10)',
    ),
    atMost(
      'peak requests in any 60 s',
      round((peak / PLAN_RPM) * 100),
      '% of plan',
      90,
      `${peak} of ${PLAN_RPM}`,
    ),
    report('WebSocket handshakes', stats.wsHandshakes, 'handshakes', `max open ${stats.maxWsOpen}`),
  ]
}

async function runCase(
  ctx: BenchContext,
  c: FreshCase,
): Promise<{ rows: BenchRow[]; json: Record<string, number> }> {
  // FRESHNESS_WINDOW_S shortens the measured window (a look on a shared machine), never --full's.
  const asked = Number(process.env.FRESHNESS_WINDOW_S)
  const windowS = ctx.full ? 180 : Number.isFinite(asked) && asked >= 20 ? asked : 60
  const warmupS = 10
  // A weekday afternoon whatever day the bench runs: every market of the mix trades, so a run on
  // a Saturday measures what one on a Monday does (closed markets are asked every few minutes).
  const clock = clockAt(WEEKDAY_AFTERNOON_UTC)
  const sim = await startSimulator({
    seed: 11,
    clock,
    ...(c.dialect ? { dialect: c.dialect } : {}),
    ...(c.behaviour ? { behaviour: c.behaviour } : {}),
  })
  const key = sim.keys.free
  const w = await watchCase(c, sim, clock, { warmupS, windowS })
  const stats = sim.stats()
  await sim.close()
  const peak = peakRequests(w.requestsAt)
  const streamP95 = percentile(w.streamAges, 95)
  const pollMedian = median(w.pollAges)
  const label = ctx.full ? '3 min' : `${windowS} s window (default; --full: 3 min)`
  ctx.log(
    `freshness (${c.label}): stream p95 ${streamP95} ms, poll median ${pollMedian} ms, peak ${peak} req/60 s, 429s ${stats.http429}`,
  )
  return {
    rows: caseRows(w, stats, key, label).map((r) => ({ ...r, metric: `${c.label}: ${r.metric}` })),
    json: {
      streamP95Ms: round(streamP95, 0),
      pollMedianMs: round(pollMedian, 0),
      pollP95Ms: round(percentile(w.pollAges, 95), 0),
      http429: stats.http429,
      rpmPeak: peak,
      rpmPeakPct: round((peak / PLAN_RPM) * 100),
      windowS,
      streamed: w.maxStreamed,
      wrong: w.wrong,
      maxSubscribed: stats.byKey[key]?.maxSubscribed ?? 0,
      overLimit: stats.overLimit,
    },
  }
}

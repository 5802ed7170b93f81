import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { startSimulator, type SimServer } from '../../src/sim'
import { behaviourFromNames } from '../../src/sim/behaviour'

/**
 * The freshness trial a user can run, judged from outside: `tickdesk watch --json` (a separate process, run
 * through tsx as `npm run cli` does) against the simulator serving one reading, and every quote
 * line held, the moment it arrives, against the simulator's record of every price it served
 * (REST rows and pushes, served-prices.ts). Nothing the app says about its own timing is read.
 *
 * `npx tsx bench/freshness/freshness-watch.ts BEHAVE[,BEHAVE] [seconds=50] [plan=pro] [symbols...]`
 * BEHAVE: the simulator's reading names (`tickdesk sim --behave`, sim/behaviour.ts), or `plain`.
 * Default symbols: four crypto symbols (DEFAULT_SYMBOLS). Prints one JSON object: lines after the first
 * 10 s (counted from the CLI's first line) whose price the service did not serve in the 10 s before (count and %), each symbol's
 * longest gap between lines after 10 s, when a status line first said the stream is not used,
 * when every symbol's line first came from the stream (and whether after being told), the REST
 * calls while every symbol streamed (the verification's cost), and the simulator's own counts:
 * 429s and 401s standing for them, the most symbols the key's socket held, handshakes.
 */
const WARMUP_MS = 10_000
const SERVED_WITHIN_MS = 10_000
const DEFAULT_SYMBOLS = ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'crypto:SOLUSDT', 'crypto:XRPUSDT']
type Plan = 'free' | 'growth' | 'pro' | 'enterprise'

interface Line {
  type: string
  market?: string
  symbol?: string
  last?: number | null
  source?: string
  message?: string
}

interface Tally {
  lines: number
  judged: number
  wrong: string[]
  lastLineAt: Map<string, number>
  maxGapMs: Map<string, number>
  toldAt: number | null
  toldMessage: string | null
  streamedAt: Map<string, number>
  allStreamedAt: number | null
  requestsAtAllStreamed: number | null
}

function parseArgs(argv: string[]): {
  behave: string[]
  seconds: number
  plan: Plan
  keys: string[]
} {
  const behave = (argv[0] ?? 'plain').split(',').filter((n) => n !== '' && n !== 'plain')
  const seconds = Number(argv[1] ?? 50)
  const plan = (argv[2] ?? 'pro') as Plan
  if (!Number.isFinite(seconds) || seconds <= 10) throw new Error('seconds: a number above 10')
  if (!['free', 'growth', 'pro', 'enterprise'].includes(plan)) throw new Error(`plan: ${plan}`)
  const keys = argv.length > 3 ? argv.slice(3) : DEFAULT_SYMBOLS
  return { behave, seconds, plan, keys }
}

/** One quote or status line, judged at the moment it arrived (t: ms since the CLI started). */
function judge(
  line: Line,
  at: { t: number; now: number },
  sim: SimServer,
  o: { keys: string[]; requests: () => number },
  y: Tally,
): void {
  const { t, now } = at
  const keys = o.keys
  y.lines++
  if (line.type !== 'quote') {
    const text = line.message ?? ''
    if (y.toldAt === null && /stream/i.test(text) && /poll/i.test(text)) {
      y.toldAt = t
      y.toldMessage = text
    }
    return
  }
  const key = `${line.market}:${line.symbol}`
  if (line.source === 'stream' && !y.streamedAt.has(key)) y.streamedAt.set(key, t)
  if (y.allStreamedAt === null && keys.every((k) => y.streamedAt.has(k))) {
    y.allStreamedAt = t
    y.requestsAtAllStreamed = o.requests()
  }
  const before = y.lastLineAt.get(key) ?? 0
  if (t >= WARMUP_MS)
    y.maxGapMs.set(key, Math.max(y.maxGapMs.get(key) ?? 0, t - Math.max(before, WARMUP_MS)))
  y.lastLineAt.set(key, t)
  if (t < WARMUP_MS || typeof line.last !== 'number') return
  y.judged++
  const servedAt = sim.lastServedAt(key, line.last, now)
  if (servedAt === null || now - servedAt > SERVED_WITHIN_MS)
    y.wrong.push(`${key} ${line.last} (${line.source}) at ${(t / 1000).toFixed(1)} s`)
}

const newTally = (): Tally => ({
  lines: 0,
  judged: 0,
  wrong: [],
  lastLineAt: new Map(),
  maxGapMs: new Map(),
  toldAt: null,
  toldMessage: null,
  streamedAt: new Map(),
  allStreamedAt: null,
  requestsAtAllStreamed: null,
})

interface Watch {
  sim: SimServer
  apiKey: string
  plan: Plan
  dataDir: string
  seconds: number
  keys: string[]
}

/** `tickdesk watch --json` run to its end, every line judged as it arrives. */
async function runWatch(w: Watch, y: Tally) {
  const args = [
    'tsx',
    'src/cli/entry.ts',
    'watch',
    '--json',
    '--duration',
    String(w.seconds),
    ...w.keys,
  ]
  const spawnedAt = Date.now()
  // The clock starts at the CLI's first line: tsx compiling the CLI (seconds on a busy machine)
  // is not the app's time.
  let t0: number | null = null
  const child = spawn('npx', args, {
    env: {
      ...process.env,
      TICKDESK_BASE_URL: w.sim.url,
      TICKDESK_API_KEY: w.apiKey,
      TICKDESK_PLAN: w.plan,
      TICKDESK_DATA_DIR: w.dataDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const requests = (): number => w.sim.stats().byKey[w.apiKey]?.requests ?? 0
  createInterface({ input: child.stdout }).on('line', (text) => {
    const now = Date.now()
    t0 ??= now
    let line: Line
    try {
      line = JSON.parse(text) as Line
    } catch {
      y.wrong.push(`not JSON: ${text.slice(0, 80)}`)
      return
    }
    judge(line, { t: now - t0, now }, w.sim, { keys: w.keys, requests }, y)
  })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  const end = Date.now() - (t0 ?? spawnedAt)
  return { code, end, startupMs: (t0 ?? spawnedAt) - spawnedAt }
}

type WatchRun = Awaited<ReturnType<typeof runWatch>>

/** The printed figures: the lines judged, the gaps, the stream's take-over and the service's counts. */
function reportOf(
  w: Omit<Watch, 'sim' | 'dataDir'> & { behave: string[] },
  run: WatchRun,
  y: Tally,
  stats: ReturnType<SimServer['stats']>,
) {
  const { seconds, plan, keys, behave } = w
  const { code, end } = run
  const byKey = stats.byKey[w.apiKey]
  const streamedMs =
    y.allStreamedAt === null ? null : Math.min(end, seconds * 1000) - y.allStreamedAt
  return {
    command: `npx tsx bench/freshness/freshness-watch.ts ${process.argv.slice(2).join(' ')}`,
    readings: behave.length === 0 ? ['plain'] : behave,
    plan,
    symbols: keys,
    seconds,
    exitCode: code,
    startupMs: run.startupMs,
    exitedAfterFirstLineMs: end,
    lines: y.lines,
    quoteLinesJudged: y.judged,
    notServedInPrevious10s: y.wrong.length,
    notServedPct: y.judged === 0 ? null : Math.round((1000 * y.wrong.length) / y.judged) / 10,
    wrongExamples: y.wrong.slice(0, 5),
    longestGapMsBySymbol: Object.fromEntries(y.maxGapMs),
    toldStreamNotUsedAtMs: y.toldAt,
    toldMessage: y.toldMessage,
    everySymbolStreamedAtMs: y.allStreamedAt,
    streamedAfterTold:
      y.toldAt !== null && y.allStreamedAt !== null ? y.allStreamedAt >= y.toldAt : null,
    restCallsWhileAllStreamed:
      y.requestsAtAllStreamed === null ? null : (byKey?.requests ?? 0) - y.requestsAtAllStreamed,
    restCallsWhileAllStreamedPerMin:
      streamedMs === null || streamedMs < 10_000 || y.requestsAtAllStreamed === null
        ? null
        : Math.round((((byKey?.requests ?? 0) - y.requestsAtAllStreamed) * 600_000) / streamedMs) /
          10,
    http429: stats.http429,
    overLimit: stats.overLimit,
    maxSubscribed: byKey?.maxSubscribed ?? 0,
    handshakes: stats.wsHandshakes,
    requests: byKey?.requests ?? 0,
  }
}

async function main(): Promise<void> {
  const { behave, seconds, plan, keys } = parseArgs(process.argv.slice(2))
  const { behaviour, unknown } = behaviourFromNames(behave)
  if (unknown.length > 0) throw new Error(`unknown readings: ${unknown.join(', ')}`)
  const sim = await startSimulator({ seed: 11, behaviour })
  const apiKey = sim.keys[plan]
  const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-fresh-watch-'))
  const y = newTally()
  const run = await runWatch({ sim, apiKey, plan, dataDir, seconds, keys }, y)
  const stats = sim.stats()
  // The last stretch of each symbol (its last line to the end) is a gap too.
  for (const k of keys) {
    const last = Math.max(y.lastLineAt.get(k) ?? 0, WARMUP_MS)
    y.maxGapMs.set(k, Math.max(y.maxGapMs.get(k) ?? 0, Math.min(run.end, seconds * 1000) - last))
  }
  await sim.close()
  rmSync(dataDir, { recursive: true, force: true })
  const report = reportOf({ apiKey, plan, seconds, keys, behave }, run, y, stats)
  console.log(JSON.stringify(report, null, 2))
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})

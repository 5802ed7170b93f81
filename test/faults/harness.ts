import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FakeClock } from '../../src/core/clock'
import { deriveStreamUrl, type EngineConfig } from '../../src/core/engine/engine-config'
import { MarketEngine } from '../../src/core/engine/engine'
import { seededRandom } from '../../src/core/random'
import type { FeedStatus } from '../../src/shared/status'
import { startSimulator, type SimServer, type SimOptions } from '../../src/sim'

/**
 * A compressed session: the simulator and the engine share one FakeClock, so a 60 s backoff or a
 * 30 s silent stream takes a few hundred real milliseconds. The network is real (loopback); between
 * clock steps the harness yields a few real milliseconds so sockets and fetches make progress.
 */
export interface Session {
  clock: FakeClock
  sim: SimServer
  engine: MarketEngine
  statuses: FeedStatus[]
  /** Every engine log line as JSON (level, message, fields). */
  logged: string[]
  /** The simulator's counters sampled after every step, stamped with fake time. */
  samples: Sample[]
  /** Most requests the simulator saw in any 60 s of fake time (spec: Limits, RPM). */
  maxPerMinute(): number
  /** Advances fake time by `ms` in `stepMs` steps, letting real I/O run between steps. */
  run(ms: number, stepMs?: number): Promise<void>
  /**
   * Runs until `pred` holds (checked after each step) or `maxMs` of fake time passed. `realMs` is
   * the real time given to sockets per step: a bound on fake time that real I/O must meet (a
   * handshake, a reply) needs more than the default 3 ms on a loaded machine, or the fake clock
   * runs past the client's timeouts while the kernel still holds the reply.
   */
  until(pred: () => boolean, maxMs?: number, stepMs?: number, realMs?: number): Promise<boolean>
  close(): Promise<void>
}

export interface Sample {
  at: number
  requests: number
  http429: number
  wsHandshakes: number
}

export const PLAN_RPM = { free: 30, growth: 120, pro: 600, enterprise: 3000 } as const

/** Twelve coins: two more than the Free plan streams. */
export const CRYPTO12 = [
  'BTCUSDT',
  'ETHUSDT',
  'SOLUSDT',
  'XRPUSDT',
  'DOGEUSDT',
  'BNBUSDT',
  'ADAUSDT',
  'AVAXUSDT',
  'LINKUSDT',
  'DOTUSDT',
  'LTCUSDT',
  'TRXUSDT',
].map((s) => `crypto:${s}`)

export const realPause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

interface SessionOptions {
  key?: (sim: SimServer) => string
  plan?: EngineConfig['plan']
  symbols?: string[]
  sim?: Omit<SimOptions, 'clock'>
  seed?: number
  /** The user's RPM override (default: the plan's). */
  rpm?: number
}

/** The engine on the session's clock against its simulator, logging into `logged`. */
function sessionEngine(
  sim: SimServer,
  clock: FakeClock,
  opts: SessionOptions,
  logged: string[],
): MarketEngine {
  const plan = opts.plan ?? 'pro'
  return new MarketEngine(
    {
      baseUrl: sim.url,
      streamUrl: deriveStreamUrl(sim.url),
      apiKey: opts.key ? opts.key(sim) : sim.keys.pro,
      plan,
      rpm: opts.rpm ?? PLAN_RPM[plan],
      demo: false,
    },
    {
      clock,
      random: seededRandom(opts.seed ?? 7),
      logger: {
        log: (level, message, fields) => logged.push(JSON.stringify({ level, message, ...fields })),
      },
    },
  )
}

export async function startSession(opts: SessionOptions): Promise<Session> {
  const clock = new FakeClock()
  const logged: string[] = []
  const sim = await startSimulator({
    seed: opts.seed ?? 7,
    tickIntervalMs: 200,
    ...opts.sim,
    clock,
  })
  const engine = sessionEngine(sim, clock, opts, logged)
  const statuses: FeedStatus[] = []
  engine.onStatus((s) => statuses.push(s))
  for (const key of opts.symbols ?? ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'fx:EURUSD'])
    engine.watch(key)
  const samples: Sample[] = []
  const step = async (ms: number, realMs = 3): Promise<void> => {
    clock.advance(ms)
    await realPause(realMs)
    const s = sim.stats()
    samples.push({
      at: clock.now(),
      requests: s.requests,
      http429: s.http429,
      wsHandshakes: s.wsHandshakes,
    })
  }
  const run = async (ms: number, stepMs = 250): Promise<void> => {
    for (let t = 0; t < ms; t += stepMs) await step(Math.min(stepMs, ms - t))
  }
  const until = async (
    pred: () => boolean,
    maxMs = 120_000,
    stepMs = 250,
    realMs = 3,
  ): Promise<boolean> => {
    for (let t = 0; t < maxMs; t += stepMs) {
      if (pred()) return true
      await step(stepMs, realMs)
    }
    return pred()
  }
  engine.start()
  return {
    clock,
    sim,
    engine,
    statuses,
    logged,
    samples,
    maxPerMinute: () => maxInWindow(samples, 60_000),
    run,
    until,
    close: async () => {
      await engine.stop()
      await sim.close()
    },
  }
}

export function tempDir(prefix = 'tickdesk-fault-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/** Quotes with a price, by key: what the trader can still read. */
export function pricedKeys(engine: MarketEngine): string[] {
  return engine.quotes
    .all()
    .filter((q) => q.last !== null)
    .map((q) => q.key)
    .sort()
}

/** Largest increase of `requests` between two samples less than `windowMs` apart. */
export function maxInWindow(samples: Sample[], windowMs: number): number {
  let best = 0
  let lo = 0
  for (let hi = 0; hi < samples.length; hi++) {
    const h = samples[hi] as Sample
    while (lo < hi && h.at - (samples[lo] as Sample).at >= windowMs) lo++
    // The sample before `lo` is the baseline: requests counted after it fall inside the window.
    const base = lo > 0 ? (samples[lo - 1] as Sample).requests : 0
    best = Math.max(best, h.requests - base)
  }
  return best
}

/** Fake times at which the simulator answered a 429 (one entry per 429, step resolution). */
export function times429(samples: Sample[]): number[] {
  const at: number[] = []
  let prev = 0
  for (const s of samples) {
    for (let i = prev; i < s.http429; i++) at.push(s.at)
    prev = s.http429
  }
  return at
}

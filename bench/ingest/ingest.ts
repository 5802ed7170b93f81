import { Worker } from 'node:worker_threads'
import WebSocket from 'ws'
import { AlertEngine } from '../../src/core/alerts/alert-engine'
import { CandleBuilder } from '../../src/core/bars/candle-builder'
import { systemClock, type Clock } from '../../src/core/clock'
import { streamTick, type StreamTickSide } from '../../src/core/engine/engine-stream'
import { FeedPlanner } from '../../src/core/feed/feed-planner'
import { QuoteStore } from '../../src/core/quotes/quote-store'
import { RateGovernor } from '../../src/core/rest/rate-governor'
import { QuoteIngest } from '../../src/core/quotes/quote-ingest'
import { SymbolStatusBook } from '../../src/core/quotes/symbol-statuses'
import { StreamMarketNames } from '../../src/core/stream/stream-market-names'
import { StreamTrust } from '../../src/core/trust/stream-trust'
import { StreamClient } from '../../src/core/stream/stream-client'
import { QuoteBatcher, realTiming } from '../../src/app/feed/quote-batcher'
import { AlertRuleSchema } from '../../src/shared/alerts/alert'
import { symbolKey } from '../../src/shared/markets/market'
import type { DialectName } from '../../src/sim/dialects'
import { BENCH_MARKET, benchSymbols, buildTickFrames } from '../frames'
import { atLeast, median, report, round, type BenchContext, type BenchResult } from '../stats'

/**
 * ingest: ticks/s through the whole core path over loopback WebSocket, against a raw `ws` client
 * that only JSON.parses the same frames, measured alternately in the same run (ratio, not time).
 *
 * Ours: frame -> StreamClient (scan or parse, route, read under the market's field reading) ->
 * MarketEngine's own stream tick handler (engine-stream.ts streamTick, not a copy: the trust
 * check, QuoteIngest's store merge, minute bar and symbol status, FeedPlanner.noteTick), with
 * the market trusted as the app trusts it, then the app's quote listeners (QuoteBatcher.request;
 * AlertEngine.evaluate, one rule per symbol) -> a batch drained when the loop is free. The
 * pusher runs in a worker thread.
 */

export const SYMBOLS = 200
/** Alternating raw/ours pairs; the ratio is the median of per-pair ratios (robust to load swings). */
const ROUNDS = 5

interface Pusher {
  url: string
  close(): Promise<void>
}

export async function startPusher(frames: string[]): Promise<Pusher> {
  const worker = new Worker(new URL('./push-server.mjs', import.meta.url), {
    workerData: { frames },
  })
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { port: number }) => resolve(m.port))
    worker.once('error', reject)
  })
  return {
    url: `ws://127.0.0.1:${port}/api/v1/market/stream`,
    close: async () => {
      worker.postMessage('close')
      await new Promise((r) => worker.once('exit', r))
    },
  }
}

/** Baseline: what any client must at least do, receive and JSON.parse each frame. */
export async function rawRun(url: string, expected: number): Promise<number> {
  const ws = new WebSocket(url)
  let ticks = 0
  let t0 = 0
  return new Promise((resolve, reject) => {
    ws.on('open', () => {
      t0 = performance.now()
      ws.send(JSON.stringify({ action: 'subscribe', market: BENCH_MARKET, symbols: ['*'] }))
    })
    ws.on('message', (data: Buffer) => {
      const v = JSON.parse(data.toString('utf8')) as { data?: unknown[] }
      ticks += Array.isArray(v.data) ? v.data.length : 1
      if (ticks >= expected) {
        const rate = ticks / ((performance.now() - t0) / 1000)
        ws.terminate()
        resolve(rate)
      }
    })
    ws.on('error', reject)
  })
}

/**
 * A stream trust that trusts the bench market, earned as the app earns it (core/trust): a push
 * held, then a REST answer that agrees with it. Ticks then go to the store, as a trusted market's do.
 */
function trustedStream(clock: Clock, symbols: string[]): StreamTrust {
  const trust = new StreamTrust({
    clock,
    onChange: () => undefined,
    sample: () => undefined,
    streamed: () => symbols,
    streams: () => true,
    sampleEveryMs: () => 180_000,
  })
  const symbol = symbols[0] ?? 'B000USDT'
  const update = { market: BENCH_MARKET, symbol, ts: null, receivedAt: clock.now() } as const
  trust.hold({ ...update, fields: {}, raw: { symbol, last: 10 }, source: 'stream' })
  trust.restAnswer({ ...update, fields: { last: 10 }, source: 'poll' }, undefined)
  if (!trust.shows(BENCH_MARKET))
    throw new Error('bench: the stream trust did not trust the market')
  return trust
}

/** What a tick meets past the stream client: the engine's tick handler and the app's listeners. */
export interface TickSink {
  side: StreamTickSide
  trust: StreamTrust
  /** Bridge patches drained so far. */
  patches(): number
  /** Flushes the last batch and stops the timers. */
  close(): void
}

/**
 * The engine's own tick handler (engine-stream.ts streamTick) over the parts MarketEngine gives
 * it, the market trusted as the app trusts it, and the app's two quote listeners (feed-events.ts:
 * the bridge batch; alert-follow.ts: one alert rule per symbol).
 */
export function engineSink(clock: Clock, symbols: string[]): TickSink {
  const store = new QuoteStore(clock)
  const alerts = new AlertEngine({ clock })
  alerts.setRules(
    symbols.map((s, i) =>
      AlertRuleSchema.parse({
        id: `r${i}`,
        createdAt: 0,
        enabled: true,
        key: symbolKey(BENCH_MARKET, s),
        condition: { kind: 'crosses', price: 1e9 },
        repeat: 'rearm',
      }),
    ),
  )
  // A real planner with every bench symbol holding a stream slot, as in the app, so noteTick does
  // the same work it does there.
  const planner = new FeedPlanner({ cap: symbols.length, clock })
  planner.setWatched(symbols.map((s) => ({ key: symbolKey(BENCH_MARKET, s), priority: 0 })))
  planner.setStreamAvailable(true)
  let patches = 0
  const batcher = new QuoteBatcher(
    realTiming,
    () => store.drainFrame(),
    (frame) => (patches += frame.keys.length),
  )
  const trust = trustedStream(clock, symbols)
  const ingest = new QuoteIngest(store, new CandleBuilder(), new SymbolStatusBook(() => true))
  ingest.onQuote(() => batcher.request())
  ingest.onQuote((q, memo) => alerts.evaluate(q, memo))
  const side: StreamTickSide = {
    trust: () => trust,
    ingest,
    planner,
    streamNames: new StreamMarketNames({ clock, onChange: () => undefined }),
  }
  return {
    side,
    trust,
    patches: () => patches,
    close: () => {
      batcher.flush()
      batcher.stop()
      planner.dispose()
    },
  }
}

/** The app's stream client on the bench's pusher, subscribed to its symbols, not yet started. */
export function benchStream(
  url: string,
  trust: Pick<StreamTrust, 'readingOf'>,
  symbols: readonly string[],
): StreamClient {
  const clock = systemClock
  const stream = new StreamClient({
    url,
    apiKey: 'bench-key',
    budget: new RateGovernor({ rpm: 3000, clock, random: Math.random }),
    clock,
    random: Math.random,
    readingOf: (market) => trust.readingOf(market),
  })
  stream.setSubscriptions(new Map([[BENCH_MARKET, new Set(symbols)]]))
  return stream
}

export async function corePathRun(
  url: string,
  expected: number,
): Promise<{ rate: number; patches: number }> {
  const clock = systemClock
  const symbols = benchSymbols(SYMBOLS)
  const { side, trust, patches, close } = engineSink(clock, symbols)
  const stream = benchStream(url, trust, symbols)
  let ticks = 0
  let t0 = 0
  const done = new Promise<number>((resolve) => {
    stream.on('state', (s) => {
      if (s === 'open') t0 = performance.now()
    })
    stream.on('tick', (u) => {
      streamTick(u, side)
      if (++ticks === expected) resolve(ticks / ((performance.now() - t0) / 1000))
    })
  })
  stream.start()
  const rate = await done
  close()
  await stream.stop()
  return { rate, patches: patches() }
}

async function measureDialect(
  dialect: DialectName,
  ticks: number,
): Promise<{ ours: number; raw: number; ratio: number }> {
  const built = buildTickFrames({ dialect, ticks, symbols: SYMBOLS, perFrame: 20 })
  const pusher = await startPusher(built.frames)
  const ours: number[] = []
  const raw: number[] = []
  const ratios: number[] = []
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const r = await rawRun(pusher.url, built.ticks)
      const o = (await corePathRun(pusher.url, built.ticks)).rate
      raw.push(r)
      ours.push(o)
      ratios.push(o / r)
    }
  } finally {
    await pusher.close()
  }
  return { ours: median(ours), raw: median(raw), ratio: median(ratios) }
}

export async function ingestBench(ctx: BenchContext): Promise<BenchResult> {
  const ticks = ctx.full ? 1_000_000 : 200_000
  const batch = await measureDialect('compact', ticks)
  ctx.log(`ingest compact: ours ${Math.round(batch.ours)}/s raw ${Math.round(batch.raw)}/s`)
  const single = await measureDialect('typed', Math.round(ticks / 3))
  ctx.log(`ingest typed: ours ${Math.round(single.ours)}/s raw ${Math.round(single.raw)}/s`)
  const pct = batch.ratio * 100
  return {
    name: 'ingest',
    rows: [
      atLeast(
        'core path, batched frames (compact, 20 ticks/frame)',
        round(batch.ours, 0),
        'ticks/s',
        100_000,
      ),
      report('raw ws + JSON.parse, same frames', round(batch.raw, 0), 'ticks/s'),
      atLeast('core path as % of raw', round(pct), '%', 50),
      report('core path, one tick per frame (typed)', round(single.ours, 0), 'ticks/s'),
      report('raw, one tick per frame (typed)', round(single.raw, 0), 'ticks/s'),
      report('one-per-frame core as % of raw', round(single.ratio * 100), '%'),
    ],
    json: {
      ticksPerSec: round(batch.ours, 0),
      rawTicksPerSec: round(batch.raw, 0),
      pctOfRaw: round(pct),
      singleFrameTicksPerSec: round(single.ours, 0),
      singleFrameRawTicksPerSec: round(single.raw, 0),
    },
  }
}

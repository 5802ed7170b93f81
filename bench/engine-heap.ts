import { MarketEngine } from '../src/core/engine/engine'
import type { CandleSeries } from '../src/core/bars/candle-builder'
import { AlertEngine } from '../src/core/alerts/alert-engine'
import { systemClock } from '../src/core/clock'
import { symbolKey } from '../src/shared/markets/market'
import type { Quote } from '../src/shared/quote'
import { BENCH_MARKET, benchSymbols } from './frames'

/**
 * Child process of bench/memory.ts (run with --expose-gc): the heap a MarketEngine holds with 200
 * symbols x 1000 one-minute bars cached and quotes live, measured after full GCs against the
 * same process before the engine existed. Prints one JSON line.
 */
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')
const settle = (): number => {
  for (let i = 0; i < 3; i++) gc()
  // Bars live in typed arrays, whose backing stores are counted in arrayBuffers, not heapUsed.
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

const SYMBOLS = 200
const BARS = 1000
const before = settle()

const engine = new MarketEngine({
  baseUrl: 'http://127.0.0.1:9',
  streamUrl: 'ws://127.0.0.1:9/api/v1/market/stream',
  apiKey: 'bench-key-0000',
  plan: 'enterprise',
  rpm: 3000,
  demo: false,
})
const alerts = new AlertEngine({ clock: systemClock })
const symbols = benchSymbols(SYMBOLS)
const now = Math.floor(Date.now() / 60_000) * 60_000
const series: CandleSeries[] = symbols.map((s, i) => {
  const t: number[] = []
  const o: number[] = []
  for (let b = 0; b < BARS; b++) {
    t.push(now - (BARS - b) * 60_000)
    o.push(10 + i + b * 0.01)
  }
  return {
    key: symbolKey(BENCH_MARKET, s),
    interval: '1m',
    t,
    o,
    h: o.map((x) => x + 0.1),
    l: o.map((x) => x - 0.1),
    c: o,
    v: o.map(() => 5),
  }
})
engine.candles.import(series)
series.length = 0
const quotes: Quote[] = symbols.map((s, i) => ({
  key: symbolKey(BENCH_MARKET, s),
  market: BENCH_MARKET,
  symbol: s,
  last: 10 + i,
  change: 0.1,
  changePercent: 1,
  open: 10,
  high: 11,
  low: 9,
  prevClose: 10,
  volume: 1000,
  quoteVolume: 10_000,
  bid: 10,
  ask: 10.1,
  bidSize: 1,
  askSize: 1,
  trades: 100,
  ts: now,
  receivedAt: now,
  source: 'cache',
  stale: true,
}))
engine.seedFromCache(quotes)
quotes.length = 0
// Live use on top: 200k ticks through the store, alerts and 1m candles (as MarketEngine.ingest).
for (let n = 0; n < 200_000; n++) {
  const i = n % SYMBOLS
  const q = engine.quotes.apply({
    market: BENCH_MARKET,
    symbol: symbols[i] ?? '',
    fields: { last: 10 + i + (n % 7) * 0.01, volume: 1000 + n },
    ts: now + n,
    source: 'stream',
  })
  alerts.evaluate(q)
  if (q.last !== null) engine.candles.add(q.key, q.ts, q.last, 1)
  if (n % 160 === 0) engine.quotes.drainPatches()
}
engine.quotes.drainPatches()
const after = settle()
const held = engine.candles.bars(symbolKey(BENCH_MARKET, symbols[0] ?? ''), '1m', 5000).length
console.log(
  JSON.stringify({
    engineHeapMB: (after - before) / 1048576,
    processHeapMB: process.memoryUsage().heapUsed / 1048576,
    arrayBuffersMB: process.memoryUsage().arrayBuffers / 1048576,
    barsPerSymbol: held,
  }),
)

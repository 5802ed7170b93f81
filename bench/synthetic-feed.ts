import { QuoteBatcher, realTiming } from '../src/app/feed/quote-batcher'
import { systemClock } from '../src/core/clock'
import { seededRandom } from '../src/core/random'
import { QuoteStore } from '../src/core/quotes/quote-store'
import { symbolKey, type SymbolKey } from '../src/shared/markets/market'
import type { QuoteFrame } from '../src/shared/quote-frame'
import { BENCH_MARKET, benchSymbols } from './frames'

/**
 * A controllable market: N symbols ticking at a fixed total rate, merged by the real QuoteStore
 * and batched by the real QuoteBatcher (a batch when the loop is free, changed fields only), exactly the
 * shape AppService sends over the bridge. Each tick carries ts = Date.now() when it is made, so
 * the page can measure tick-to-DOM latency against the same wall clock.
 */
export interface SyntheticFeedOptions {
  symbols: number
  ticksPerSec: number
  onBatch: (frame: QuoteFrame) => void
  seed?: number
}

export class SyntheticFeed {
  readonly store = new QuoteStore(systemClock)
  readonly keys: SymbolKey[]
  private readonly symbols: string[]
  private readonly prices: number[]
  private readonly random: () => number
  private readonly batcher: QuoteBatcher
  private timer: ReturnType<typeof setTimeout> | null = null
  private startedAt = 0
  private sent = 0

  constructor(private readonly opts: SyntheticFeedOptions) {
    this.symbols = benchSymbols(opts.symbols)
    this.keys = this.symbols.map((s) => symbolKey(BENCH_MARKET, s))
    this.prices = this.symbols.map((_, i) => 10 + i)
    this.random = seededRandom(opts.seed ?? 7)
    this.batcher = new QuoteBatcher(realTiming, () => this.store.drainFrame(), opts.onBatch)
    // Every symbol has a full quote before the first batch (the snapshot the page loads).
    for (let i = 0; i < this.symbols.length; i++) this.tick(i, 1)
    this.store.drainFrame()
  }

  start(): void {
    this.startedAt = performance.now()
    this.sent = 0
    const loop = (): void => {
      const due = Math.floor(((performance.now() - this.startedAt) / 1000) * this.opts.ticksPerSec)
      for (; this.sent < due; this.sent++)
        this.tick(Math.floor(this.random() * this.symbols.length))
      this.timer = setTimeout(loop, 1)
    }
    loop()
  }

  ticksSent(): number {
    return this.sent
  }

  /**
   * Stops ticking. A batch already due still goes out on its schedule, as a host's would: the page
   * ends on the store's newest prices.
   */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  /** Stops ticking and sends nothing more. */
  close(): void {
    this.stop()
    this.batcher.stop()
  }

  private tick(i: number, volume = 0): void {
    const last = (this.prices[i] = (this.prices[i] ?? 10) * (1 + (this.random() - 0.5) * 0.002))
    const rounded = Math.round(last * 1e4) / 1e4
    this.store.apply({
      market: BENCH_MARKET,
      symbol: this.symbols[i] ?? 'B000USDT',
      fields: {
        last: rounded,
        bid: Math.round(rounded * 0.9999 * 1e4) / 1e4,
        ask: Math.round(rounded * 1.0001 * 1e4) / 1e4,
        volume: 1_000_000 + this.sent + volume,
        prevClose: 10 + i,
      },
      ts: Date.now(),
      source: 'stream',
    })
    this.batcher.request()
  }
}

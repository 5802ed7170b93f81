import { symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Bar, Interval } from '../../shared/quote'
import type { CandleBuilder } from './candle-builder'
import type { Clock, TimerHandle } from '../clock'
import { klineRoute } from '../rest/market-routes'
import { requireSymbolRef } from '../quotes/symbol-input'

/** Bars one alert rule reads (a moving average's history). */
export interface BarNeed {
  key: SymbolKey
  interval: Interval
  count: number
}

export interface BarBackfillDeps {
  candles: Pick<CandleBuilder, 'bars' | 'merge'>
  clock: Clock
  /** The governor's view of the current minute. */
  budget: () => { usedLastMinute: number; perMinute: number }
  /** One metered kline call. */
  fetch: (key: SymbolKey, interval: Interval, limit: number) => Promise<Bar[]>
}

/** Asked again after this long when the minute's budget had no room. */
export const BACKFILL_RETRY_MS = 15_000

/**
 * The history moving-average alerts need, fetched once per (symbol, interval) where the service
 * has klines and the engine holds too few bars; evaluation itself never asks the service. Like
 * the sparklines (spark-history.ts) it spends only a spare half of the minute's budget, and asks
 * again later when that was short. Markets without klines wait for bars built from ticks.
 */
export class BarBackfill {
  private readonly done = new Set<string>()
  private wanted: BarNeed[] = []
  private retry: TimerHandle | null = null

  constructor(private readonly deps: BarBackfillDeps) {}

  want(needs: readonly BarNeed[]): void {
    this.wanted = [...needs]
    void this.run()
  }

  stop(): void {
    this.deps.clock.clearTimeout(this.retry)
    this.retry = null
  }

  private async run(): Promise<void> {
    let short = false
    for (const need of this.wanted) {
      let key: SymbolKey
      try {
        const ref = requireSymbolRef(need.key)
        if (!klineRoute(ref.market)) continue
        key = symbolKey(ref.market, ref.symbol)
      } catch {
        continue
      }
      const id = `${key}|${need.interval}`
      if (this.done.has(id)) continue
      if (this.deps.candles.bars(key, need.interval, need.count).length >= need.count) continue
      const budget = this.deps.budget()
      if (budget.usedLastMinute + 1 > budget.perMinute / 2) {
        short = true
        continue
      }
      this.done.add(id)
      const bars = await this.deps.fetch(key, need.interval, need.count + 1).catch(() => [])
      if (bars.length > 0) this.deps.candles.merge(key, bars, need.interval)
    }
    if (short && this.retry === null)
      this.retry = this.deps.clock.setTimeout(() => {
        this.retry = null
        void this.run()
      }, BACKFILL_RETRY_MS)
  }
}

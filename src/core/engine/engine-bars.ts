import { symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Bar, Interval } from '../../shared/quote'
import { BarBackfill, type BarNeed } from '../bars/bar-backfill'
import type { CandleBuilder } from '../bars/candle-builder'
import { fetchCandles } from '../rest/candles-client'
import type { Clock } from '../clock'
import { klineRoute } from '../rest/market-routes'
import type { RestClient } from '../rest/rest-client'
import { SparkHistory } from '../bars/spark-history'
import { requireSymbolRef } from '../quotes/symbol-input'

/**
 * The bars the engine serves: a chart's (fetched where the service has klines, built from ticks
 * elsewhere), the rows' sparkline history (spark-history.ts) and the history moving-average
 * alerts read (bar-backfill.ts). Apart from engine.ts because it is its own job, on REST and the
 * CandleBuilder only: no stream, no plan.
 */
export class EngineBars {
  private readonly spark: SparkHistory
  /** History for moving-average alerts (bar-backfill.ts). */
  private readonly backfill: BarBackfill

  constructor(
    private readonly o: {
      candles: CandleBuilder
      rest: RestClient
      clock: Clock
      budget: () => { usedLastMinute: number; perMinute: number }
    },
  ) {
    const { candles, rest, clock, budget } = o
    this.spark = new SparkHistory({
      candles,
      budget,
      fetch1m: (key, limit) => this.get(key, '1m', limit),
    })
    this.backfill = new BarBackfill({
      candles,
      clock,
      budget,
      fetch: (key, interval, limit) => fetchCandles(rest, key, interval, limit),
    })
  }

  async get(key: SymbolKey, interval: Interval, limit: number): Promise<Bar[]> {
    const ref = requireSymbolRef(key)
    const canonical = symbolKey(ref.market, ref.symbol)
    if (klineRoute(ref.market)) {
      const bars = await fetchCandles(this.o.rest, canonical, interval, limit)
      if (interval === '1m') this.o.candles.merge(canonical, bars)
      return bars
    }
    return this.o.candles.bars(canonical, interval, limit)
  }

  /** Bars moving-average alerts read, fetched once where missing (bar-backfill.ts). */
  backfillBars(needs: readonly BarNeed[]): void {
    this.backfill.want(needs)
  }

  /** The rows' sparkline history (spark-history.ts). */
  sparkHistory(keys: readonly SymbolKey[]): Promise<Array<{ key: SymbolKey; bars: Bar[] }>> {
    return this.spark.of(keys)
  }

  stop(): void {
    this.backfill.stop()
  }
}

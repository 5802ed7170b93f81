import { symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Bar } from '../../shared/quote'
import type { CandleBuilder } from './candle-builder'
import { klineRoute } from '../rest/market-routes'
import { requireSymbolRef } from '../quotes/symbol-input'

/** A sparkline's history: the last hour of 1-minute bars. */
export const SPARK_BARS = 60

export interface SparkHistoryDeps {
  /** The bars the engine has (built from ticks, the bars cache, fetched for a chart). */
  candles: Pick<CandleBuilder, 'bars'>
  /** The governor's view of the current minute. */
  budget: () => { usedLastMinute: number; perMinute: number }
  /** One metered kline call (it also merges the bars into the engine's candles). */
  fetch1m: (key: SymbolKey, limit: number) => Promise<Bar[]>
}

/**
 * The last hour of 1-minute bars per symbol, for the rows' sparklines. Bars the engine has cost
 * nothing; a market whose bars come from a kline endpoint costs one call per symbol, made only
 * while at least half of the minute's budget is spare (on Free, often not at start: those rows
 * are asked again later, and live prices draw their line meanwhile). A symbol is fetched once.
 */
export class SparkHistory {
  private readonly fetched = new Set<SymbolKey>()

  constructor(private readonly deps: SparkHistoryDeps) {}

  async of(keys: readonly SymbolKey[]): Promise<Array<{ key: SymbolKey; bars: Bar[] }>> {
    const out: Array<{ key: SymbolKey; bars: Bar[] }> = []
    for (const key of keys) {
      let ref: ReturnType<typeof requireSymbolRef>
      try {
        ref = requireSymbolRef(key)
      } catch {
        continue
      }
      const canonical = symbolKey(ref.market, ref.symbol)
      const have = this.deps.candles.bars(canonical, '1m', SPARK_BARS)
      if (have.length > 1 || !klineRoute(ref.market) || this.fetched.has(canonical)) {
        out.push({ key, bars: have })
        continue
      }
      const budget = this.deps.budget()
      if (budget.usedLastMinute + 1 > budget.perMinute / 2) continue
      this.fetched.add(canonical)
      const bars = await this.deps.fetch1m(canonical, SPARK_BARS).catch(() => [])
      out.push({ key, bars })
    }
    return out
  }
}

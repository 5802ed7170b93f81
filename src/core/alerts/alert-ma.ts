import { bucketStart } from '../../shared/intervals'
import type { Bar, Interval } from '../../shared/quote'

/**
 * Moving averages for 'maCross' rules, on the bars the engine already holds (built from ticks or
 * fetched once: bar-backfill.ts). The bar forming now takes the live price as its close, so the
 * average moves with the price as a chart's does. The closed bars are read once per bar: a tick
 * costs one multiply-add, not a pass over the bars.
 */

export type MaKind = 'sma' | 'ema'

/** Bars a rule needs: the period for an SMA; an EMA warms up over three times as many. */
export function barsNeeded(ma: MaKind, period: number): number {
  return ma === 'ema' ? period * 3 : period
}

/**
 * The average over `closes` (oldest first) with `price` as the newest close; null with fewer
 * than `period` values. EMA: seeded with the SMA of the first `period`, then 2/(period+1).
 */
export function movingAverage(
  ma: MaKind,
  period: number,
  closes: readonly number[],
  price: number,
): number | null {
  const n = closes.length + 1
  if (n < period) return null
  const at = (i: number): number => (i === closes.length ? price : (closes[i] as number))
  if (ma === 'sma') {
    let sum = 0
    for (let i = n - period; i < n; i++) sum += at(i)
    return sum / period
  }
  let ema = 0
  for (let i = 0; i < period; i++) ema += at(i)
  ema /= period
  const k = 2 / (period + 1)
  for (let i = period; i < n; i++) ema += k * (at(i) - ema)
  return ema
}

export type BarSource = (key: string, interval: Interval, limit: number) => Bar[]

/** One rule's average: the closed bars cached per bar, the live price folded in per tick. */
export class MaTracker {
  private bucket = -1
  private closes: number[] = []
  /** Retry a short history at most this often (bars may arrive from a backfill meanwhile). */
  private retryAt = 0
  private held = 0

  constructor(
    private readonly key: string,
    private readonly ma: MaKind,
    private readonly period: number,
    private readonly interval: Interval,
  ) {}

  value(bars: BarSource | null, now: number, price: number): number | null {
    if (bars === null) {
      this.held = 0
      return null
    }
    this.refresh(bars, now)
    return movingAverage(this.ma, this.period, this.closes, price)
  }

  /**
   * Bars the average has now, the one forming counted (it takes the live price), of the period
   * it needs: fewer means the rule cannot fire yet (no history fetched, none built from ticks).
   */
  warmup(bars: BarSource | null, now: number): { have: number; need: number } {
    if (bars === null) this.held = 0
    // A look from outside the tick path (the hosts' state) leaves the ticks' retry pace alone.
    else this.refresh(bars, now, false)
    return { have: this.held, need: this.period }
  }

  /** What the last value() or warmup() found, without a look at the bars (the tick path). */
  get have(): number {
    return this.held
  }

  private refresh(bars: BarSource, now: number, paced = true): void {
    const bucket = bucketStart(this.interval, now)
    const need = barsNeeded(this.ma, this.period)
    const short = this.closes.length + 1 < need
    if (bucket !== this.bucket || (short && (!paced || now >= this.retryAt))) {
      this.bucket = bucket
      if (paced) this.retryAt = now + 5_000
      // Closed bars only: the one forming now (if held) is replaced by the live price.
      this.closes = bars(this.key, this.interval, need + 1)
        .filter((b) => b.openTime < bucket)
        .slice(-(need - 1))
        .map((b) => b.close)
    }
    this.held = Math.min(this.closes.length + 1, this.period)
  }
}

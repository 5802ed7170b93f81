import {
  PLAN_LIMITS,
  parseSymbolKey,
  hasCandleEndpoint,
  type Plan,
} from '../../../shared/markets/market'
import type { Bar, Interval } from '../../../shared/quote'
import { errorMessage } from '../bridge/bridge-error'
import { TILE_BARS, TileSeries } from './tile-series'

/**
 * Share of the plan's requests a minute the wall may spend on candles: the quotes keep the rest.
 * On Free (30 a minute) that is one kline call every 8 s; on Pro (600) one every 0.4 s.
 */
export const WALL_BUDGET_SHARE = 1 / 4

/** Milliseconds between two metered candle calls of the wall on a plan. */
export function klineSpacingMs(plan: Plan): number {
  return Math.ceil(60_000 / (PLAN_LIMITS[plan].rpm * WALL_BUDGET_SHARE))
}

/** Whether a symbol's bars cost a call (a candle endpoint) or come from what the app built. */
export function costsCall(key: string): boolean {
  const ref = parseSymbolKey(key)
  return ref !== null && hasCandleEndpoint(ref.market)
}

/**
 * The wall's budget line: what its tiles cost at this interval, in a trader's words. Bars the app
 * already fetched cost nothing again; markets without a candle endpoint never cost a call.
 */
export function wallBudgetText(keys: readonly string[], pending: number, plan: Plan): string {
  const calls = keys.filter(costsCall).length
  const built = keys.length - calls
  const parts: string[] = []
  if (calls > 0) {
    const every = klineSpacingMs(plan) / 1000
    parts.push(
      `${calls} candle call${calls === 1 ? '' : 's'} (one per symbol, one every ${every.toFixed(every < 10 ? 1 : 0)} s${pending > 0 ? `, ${pending} to go` : ''})`,
    )
  }
  if (built > 0) parts.push(`${built} from bars built from live prices (no call)`)
  return `Wall: ${parts.join('; ') || 'no symbols'}`
}

export interface WallBarsDeps {
  fetch: (key: string, interval: Interval, limit: number) => Promise<Bar[]>
  setTimer: (fn: () => void, ms: number) => unknown
  plan: () => Plan
}

/**
 * The tiles' bars, kept while the page lives (leaving the wall and coming back costs nothing):
 * one TileSeries per symbol and interval. Each is filled by one getCandles call, asked one at a
 * time in the wall's order; a metered call (a market with a candle endpoint) waits klineSpacingMs
 * after the previous metered one, so 30 futures tiles are spread over minutes on Free, not a burst
 * that would starve the quotes. Bars the app built from live prices are asked back to back (they
 * cost no call). A failed fetch leaves the tile on live prices, with the reason.
 */
export class WallBars {
  private readonly series = new Map<string, TileSeries>()
  private readonly asked = new Set<string>()
  readonly errors = new Map<string, string>()
  private queue: Array<{ key: string; interval: Interval }> = []
  private busy = false
  /** The fetch out now, `key|interval`. */
  private inFlight: string | null = null
  private nextMetered = 0
  /** Told when bars came in (or a fetch failed) for a symbol: its tile redraws. */
  private listener: ((key: string, interval: Interval) => void) | null = null

  constructor(
    private readonly deps: WallBarsDeps,
    private readonly now: () => number = Date.now,
  ) {}

  of(key: string, interval: Interval): TileSeries {
    const id = `${key}|${interval}`
    let s = this.series.get(id)
    if (s === undefined) {
      s = new TileSeries(interval, TILE_BARS, !costsCall(key))
      this.series.set(id, s)
    }
    return s
  }

  setListener(fn: ((key: string, interval: Interval) => void) | null): void {
    this.listener = fn
  }

  /** Whether a tile's bars are still to come (queued or asked, not answered). */
  waiting(key: string, interval: Interval): boolean {
    const id = `${key}|${interval}`
    return !this.asked.has(id) || this.inFlight === id
  }

  /** Metered calls still waiting to go out. */
  get pending(): number {
    return this.queue.filter((q) => costsCall(q.key)).length
  }

  /** The tiles on the wall now, in order: those never asked are asked (earlier wants dropped). */
  want(keys: readonly string[], interval: Interval): void {
    this.queue = keys
      .filter((k) => !this.asked.has(`${k}|${interval}`))
      .map((key) => ({ key, interval }))
    this.next()
  }

  private next(): void {
    if (this.busy) return
    const item = this.queue[0]
    if (item === undefined) return
    const metered = costsCall(item.key)
    const wait = metered ? this.nextMetered - this.now() : 0
    if (wait > 0) {
      this.busy = true
      this.deps.setTimer(() => {
        this.busy = false
        this.next()
      }, wait)
      return
    }
    this.queue.shift()
    const id = `${item.key}|${item.interval}`
    this.asked.add(id)
    if (metered) this.nextMetered = this.now() + klineSpacingMs(this.deps.plan())
    this.busy = true
    this.inFlight = id
    this.deps.fetch(item.key, item.interval, TILE_BARS).then(
      (bars) => {
        this.errors.delete(id)
        this.of(item.key, item.interval).load(bars, item.interval)
        this.done(item)
      },
      (err: unknown) => {
        this.errors.set(id, errorMessage(err))
        this.done(item)
      },
    )
  }

  private done(item: { key: string; interval: Interval }): void {
    this.busy = false
    this.inFlight = null
    this.listener?.(item.key, item.interval)
    this.next()
  }
}

import type { SimPlan } from './plans'
import type { KeyRecord, RpmOverride } from './plans-and-keys'
import { rpmFor } from './plans-and-keys'
import { TradingDay } from './market/trading-day'

/**
 * Metering (spec: Limits): REST quote/kline calls and stream handshakes count toward the
 * per-key RPM and the daily quota; pushes never do. Only admitted requests enter the window,
 * so a client that keeps hammering while limited is not locked out forever.
 */

const WINDOW_MS = 60_000

export interface LimitVerdict {
  code: 'RATE_LIMIT_EXCEEDED' | 'KEY_RATE_LIMIT_EXCEEDED' | 'DAILY_LIMIT_EXCEEDED'
  message: string
  /** Whole seconds, at least 1: every 429 carries Retry-After (spec: Errors). */
  retryAfterSec: number
}

/** Per-key requests-per-minute over a true sliding 60 s window of admitted request times. */
export class SlidingWindow {
  private readonly times: number[] = []

  constructor(
    readonly limit: number,
    readonly windowMs = WINDOW_MS,
  ) {}

  /** Null when one more request fits; otherwise ms until the oldest entry leaves the window. */
  check(now: number): number | null {
    while (this.times.length > 0 && (this.times[0] as number) <= now - this.windowMs)
      this.times.shift()
    if (this.times.length < this.limit) return null
    return (this.times[0] as number) + this.windowMs - now
  }

  record(now: number): void {
    this.times.push(now)
  }
}

/** A daily counter that resets when the trading day rolls (UTC midnight unless moved). */
export class DailyQuota {
  private day = -1
  private used = 0
  private spent = false

  constructor(
    readonly limit: number,
    private readonly days: TradingDay = new TradingDay(),
  ) {}

  /** Null when one more request fits; otherwise ms until the next day begins. */
  check(now: number): number | null {
    this.roll(now)
    return this.used < this.limit && !this.spent ? null : this.days.msLeft(now)
  }

  record(): void {
    this.used++
  }

  /** Uses up what is left of today's quota, as another client on the same key would. */
  spend(now: number): void {
    this.roll(now)
    this.spent = true
  }

  private roll(now: number): void {
    const day = this.days.index(now)
    if (day !== this.day) {
      this.day = day
      this.used = 0
      this.spent = false
    }
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/** All per-key meters of one simulator. */
export class KeyMeters {
  private readonly windows = new Map<string, SlidingWindow>()
  private readonly quotas = new Map<string, DailyQuota>()

  constructor(
    private readonly rpmOverride: RpmOverride | undefined,
    private readonly days: TradingDay = new TradingDay(),
    /** Per-key RPMs below the plan's ("Per-key RPM values: not shown", spec: Limits). */
    private readonly keyRpm: Readonly<Record<string, number>> = {},
  ) {}

  rpm(plan: SimPlan): number {
    return rpmFor(plan, this.rpmOverride)
  }

  /** The key's own RPM when lower than its plan's, else null. */
  private ownRpm(key: KeyRecord): number | null {
    const own = this.keyRpm[key.key]
    return own !== undefined && own < this.rpm(key.plan) ? own : null
  }

  /**
   * Meters one request; null when admitted (and then counted in both meters). The quota is
   * checked first: it is the longer wait, so its Retry-After is the honest one.
   */
  admit(key: KeyRecord, now: number): LimitVerdict | null {
    const quota = this.quotas.get(key.key) ?? this.quotaOf(key)
    if (quota) {
      const wait = quota.check(now)
      if (wait !== null) {
        return {
          code: 'DAILY_LIMIT_EXCEEDED',
          message: Number.isFinite(quota.limit)
            ? `daily quota of ${quota.limit} requests exceeded`
            : 'daily quota exceeded',
          retryAfterSec: seconds(wait),
        }
      }
    }
    const own = this.ownRpm(key)
    let window = this.windows.get(key.key)
    if (!window) this.windows.set(key.key, (window = new SlidingWindow(own ?? this.rpm(key.plan))))
    const wait = window.check(now)
    if (wait !== null) {
      return {
        code: own === null ? 'RATE_LIMIT_EXCEEDED' : 'KEY_RATE_LIMIT_EXCEEDED',
        message: `${own === null ? 'rate' : 'per-key rate'} limit of ${window.limit} requests per minute exceeded`,
        retryAfterSec: seconds(wait),
      }
    }
    window.record(now)
    quota?.record()
    return null
  }

  /**
   * Today's quota of `key` is used up, as if another client on the same key had spent it; the key
   * is refused with DAILY_LIMIT_EXCEEDED until the next day begins. A key without a daily quota
   * (null in its record) is refused for the rest of today only.
   */
  spendQuota(key: KeyRecord, now: number): void {
    let quota = this.quotas.get(key.key) ?? this.quotaOf(key)
    if (!quota)
      this.quotas.set(key.key, (quota = new DailyQuota(Number.POSITIVE_INFINITY, this.days)))
    quota.spend(now)
  }

  private quotaOf(key: KeyRecord): DailyQuota | undefined {
    if (key.dailyQuota === null) return undefined
    const quota = new DailyQuota(key.dailyQuota, this.days)
    this.quotas.set(key.key, quota)
    return quota
  }

  clear(): void {
    this.windows.clear()
    this.quotas.clear()
  }
}

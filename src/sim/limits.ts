import type { SimPlan } from './plans'
import type { KeyRecord, RpmOverride } from './plans-and-keys'
import { rpmFor } from './plans-and-keys'

/**
 * Metering (spec: Limits): REST quote/kline calls and stream handshakes count toward the
 * per-key RPM and the daily quota; pushes never do. Only admitted requests enter the window,
 * so a client that keeps hammering while limited is not locked out forever.
 */

const WINDOW_MS = 60_000
const DAY_MS = 86_400_000

export interface LimitVerdict {
  code: 'RATE_LIMIT_EXCEEDED' | 'DAILY_LIMIT_EXCEEDED'
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

/** A daily counter that resets at UTC midnight. */
export class DailyQuota {
  private day = -1
  private used = 0

  constructor(readonly limit: number) {}

  /** Null when one more request fits; otherwise ms until the next UTC midnight. */
  check(now: number): number | null {
    const day = Math.floor(now / DAY_MS)
    if (day !== this.day) {
      this.day = day
      this.used = 0
    }
    return this.used < this.limit ? null : (day + 1) * DAY_MS - now
  }

  record(): void {
    this.used++
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/** All per-key meters of one simulator. */
export class KeyMeters {
  private readonly windows = new Map<string, SlidingWindow>()
  private readonly quotas = new Map<string, DailyQuota>()

  constructor(private readonly rpmOverride: RpmOverride | undefined) {}

  rpm(plan: SimPlan): number {
    return rpmFor(plan, this.rpmOverride)
  }

  /**
   * Meters one request; null when admitted (and then counted in both meters). The quota is
   * checked first: it is the longer wait, so its Retry-After is the honest one.
   */
  admit(key: KeyRecord, now: number): LimitVerdict | null {
    let quota: DailyQuota | undefined
    if (key.dailyQuota !== null) {
      quota = this.quotas.get(key.key)
      if (!quota) this.quotas.set(key.key, (quota = new DailyQuota(key.dailyQuota)))
      const wait = quota.check(now)
      if (wait !== null) {
        return {
          code: 'DAILY_LIMIT_EXCEEDED',
          message: `daily quota of ${key.dailyQuota} requests exceeded`,
          retryAfterSec: seconds(wait),
        }
      }
    }
    let window = this.windows.get(key.key)
    if (!window) this.windows.set(key.key, (window = new SlidingWindow(this.rpm(key.plan))))
    const wait = window.check(now)
    if (wait !== null) {
      return {
        code: 'RATE_LIMIT_EXCEEDED',
        message: `rate limit of ${window.limit} requests per minute exceeded`,
        retryAfterSec: seconds(wait),
      }
    }
    window.record(now)
    quota?.record()
    return null
  }

  clear(): void {
    this.windows.clear()
    this.quotas.clear()
  }
}

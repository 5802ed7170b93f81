import type { Clock, TimerHandle } from '../clock'
import { FORBIDDEN_RECHECK_MS } from '../errors'
import type { Random } from '../random'
import { fullJitterDelay } from '../random'

/**
 * How long the stream waits before its next handshake, by cause. Pure so the numbers can be
 * checked without a socket. The interface gives no reconnect rules (spec: Events, "Heartbeat
 * interval and reconnect rules: not shown"), only "honor Retry-After, exponential back-off is
 * advised" (spec: Errors); the constants below are ours.
 */

/** Ordinary drops: full jitter from 1 s doubling to a 60 s cap. */
export const RECONNECT_BASE_MS = 1_000
export const RECONNECT_CAP_MS = 60_000
/** An open minute proves the link works; the attempt counters start over after it. */
export const STABLE_OPEN_MS = 60_000
/** 403 is an entitlement problem a human fixes in the console: the same wait as REST's. */
export const FORBIDDEN_RETRY_MS = FORBIDDEN_RECHECK_MS
/** WS_CONN_LIMIT: another app (or a leaked socket) holds the plan's connections. */
export const CONN_LIMIT_MIN_MS = 20_000
export const CONN_LIMIT_CAP_MS = 10 * 60_000

export function reconnectDelay(attempt: number, random: Random): number {
  return fullJitterDelay(attempt, RECONNECT_BASE_MS, RECONNECT_CAP_MS, random)
}

/**
 * Equal jitter (half fixed, half random) so the gap never drops under 20 s: attempt 0 waits
 * 20-40 s, 1: 40-80 s, 2: 80-160 s, 3: 160-320 s, then 5-10 min. At most three tries a minute
 * even at the start, and the engine polls meanwhile.
 */
export function connLimitDelay(attempt: number, random: Random): number {
  const ceiling = Math.min(CONN_LIMIT_CAP_MS, 2 * CONN_LIMIT_MIN_MS * 2 ** Math.min(attempt, 20))
  return Math.floor(ceiling / 2 + (random() * ceiling) / 2)
}

/** 429 on the upgrade: Retry-After wins when it is longer than our own backoff. */
export function rateLimitedDelay(
  retryAfterMs: number | null,
  attempt: number,
  random: Random,
): number {
  return Math.max(retryAfterMs ?? 0, reconnectDelay(attempt, random), RECONNECT_BASE_MS)
}

/**
 * drop: ordinary loss; timeout: a handshake that got no answer (HandshakeTimer already waited
 * 15, 30, 60 s for it, so the next one follows within a second: a service that recovers in the
 * gap is not left waiting through a backoff grown by the stall); budget: the HandshakeBudget
 * asked us to wait `waitMs`.
 */
export type RetryCause = 'drop' | 'timeout' | 'connLimit' | 'forbidden' | 'rateLimited' | 'budget'

/**
 * The one pending reconnect timer and the attempt counters behind its delays. Only `drop`
 * waits may be cut short by a health check; the others are the service's or the budget's.
 */
export class RetrySchedule {
  private attempt = 0
  private connLimitAttempt = 0
  private timer: TimerHandle | null = null
  /** Epoch ms the pending retry is due; null when none is pending. */
  at: number | null = null
  cutShortable = true

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly onDue: () => void,
  ) {}

  arm(cause: RetryCause, waitMs: number | null = null): void {
    const r = this.random
    const delay =
      cause === 'drop'
        ? reconnectDelay(this.attempt++, r)
        : cause === 'timeout'
          ? reconnectDelay(0, r)
          : cause === 'connLimit'
            ? connLimitDelay(this.connLimitAttempt++, r)
            : cause === 'forbidden'
              ? FORBIDDEN_RETRY_MS
              : cause === 'rateLimited'
                ? rateLimitedDelay(waitMs, this.attempt++, r)
                : (waitMs ?? RECONNECT_BASE_MS)
    this.armFor(delay, cause === 'drop' || cause === 'timeout')
  }

  /** Re-arms a pending wait against the wall clock (timers drift across a clock jump). */
  rearm(now: number): void {
    if (this.at !== null) this.armFor(Math.max(0, this.at - now), this.cutShortable)
  }

  clear(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
    this.at = null
  }

  /** A stable open minute, or a new key: start the backoff ladders over. */
  resetAttempts(): void {
    this.attempt = 0
    this.connLimitAttempt = 0
  }

  private armFor(delay: number, cutShortable: boolean): void {
    this.clear()
    this.cutShortable = cutShortable
    this.at = this.clock.now() + delay
    this.timer = this.clock.setTimeout(() => {
      this.timer = null
      this.at = null
      this.onDue()
    }, delay)
  }
}

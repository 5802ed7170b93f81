import type { Clock, TimerHandle } from '../clock'
import { ACCOUNT_WIDE_403, QUOTA_429, RATE_429, TickdeskError } from '../errors'
import { fullJitterDelay, type Random } from '../random'
import { SendWindow, WINDOW_MS } from './send-window'

/**
 * RateGovernor: the one request budget per API key, shared by REST calls and stream handshakes
 * (spec: Limits, "REST quote and kline calls and the WebSocket handshake count toward the daily
 * quota and requests per minute"), and the one place that turns service outcomes into policy.
 *
 * Budget: at most floor(rpm * utilisation) sends (default 90 %) in any sliding 60 s window, held
 * for one more second: the service counts at arrival, and a request held up on the way must not
 * land in the same minute as one sent a minute after the first.
 * Kinds: 'rest' (a candle call, a connection probe) and 'handshake' are foreground; 'poll' is the
 * QuotePoller's background work. Polls may spend the whole budget while nobody else needs it,
 * and give it back when someone does: a foreground request refused for want of a slot is owed
 * the next one, and polls wait until it is served (or gave up: DEMAND_MS).
 *
 * States, strongest first; report(error) moves to a state at least as strong as the current one
 * (never weakens a pause that is still running); when retryAt passes a timer returns to `open`.
 *   stopped  401 (code UNAUTHORIZED, retryAt null: nothing is sent until resetAuth()), or an
 *            account-wide 403 NO_SUBSCRIPTION / SUBSCRIPTION_EXPIRED / IP_DENIED / GEO_DENIED
 *            (retryAt = now + 15 min: one recheck then, never sooner). Blocks rest and handshake.
 *   quota    429 DAILY_/MONTHLY_LIMIT_EXCEEDED: REST and handshakes blocked until Retry-After,
 *            else the next UTC midnight (daily) or the first of next month UTC (monthly): the
 *            handshake counts against the quota too (spec: Limits), so a dropped stream waits for
 *            the reset like REST does. An open stream keeps running (pushes are not metered).
 *            When a daily one ends, callsToday starts again (the service's day has begun).
 *   paused   any other 429: one global pause of rest and handshake for Retry-After (any form,
 *            capped: retry-after.ts), without it exponential backoff with full jitter (1 s base,
 *            60 s cap). A per-minute 429 that came while this budget's window held no more than
 *            its ceiling (and at least a quarter of it) says the key's RPM is lower than the plan's
 *            ("Per-key RPM values: not shown", spec: Limits): the ceiling drops to 90 % of what
 *            the service let through (send-window.ts), for the rest of the session, and the
 *            status says so.
 *   backoff  5xx, NETWORK, TIMEOUT, BAD_RESPONSE: REST waits full jitter (1 s base, 60 s cap);
 *            the stream client runs its own reconnect backoff, so handshakes are not held here.
 *   open     only the sliding window applies.
 * A success resets the backoff attempt counters. 403 MARKET_NOT_ENABLED / API_KEY_SCOPE_DENIED
 * and 400s are per-market or per-symbol: the poller handles them, the account stays open.
 */
export type GovernorState = 'open' | 'backoff' | 'paused' | 'quota' | 'stopped'
export type RequestKind = 'rest' | 'handshake' | 'poll'

export interface GovernorSnapshot {
  state: GovernorState
  code: string | null
  message: string
  retryAt: number | null
  usedLastMinute: number
  /** The governed ceiling (rpm x utilisation), not the plan's nominal RPM. */
  perMinute: number
  callsToday: number
  /** The key's own RPM as its 429s showed it, when lower than the plan's; absent otherwise. */
  learnedRpm?: number
}

export interface RateGovernorOptions {
  rpm: number
  utilisation?: number
  clock: Clock
  random: Random
  /** How long an account-wide 403 stops traffic before one recheck (default 15 min). */
  recheckMs?: number
}

const BACKOFF_BASE_MS = 1_000
const BACKOFF_CAP_MS = 60_000
const DAY_MS = 86_400_000
const RANK: Record<GovernorState, number> = { open: 0, backoff: 1, paused: 2, quota: 3, stopped: 4 }
const TRANSPORT = new Set(['NETWORK', 'TIMEOUT', 'BAD_RESPONSE'])
/** How long a refused foreground request holds its claim on the next slot without asking again. */
const DEMAND_MS = 65_000
const DEMAND_RECHECK_MS = 250
/** When a daily or monthly quota resets if the service gives no Retry-After (UTC boundaries). */
export function nextQuotaReset(code: string, now: number): number {
  const d = new Date(now)
  if (code === 'MONTHLY_LIMIT_EXCEEDED') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
}

export class RateGovernor {
  private readonly clock: Clock
  private readonly random: Random
  private readonly recheckMs: number
  private readonly window: SendWindow
  private state: GovernorState = 'open'
  private code: string | null = null
  private message = ''
  private retryAt: number | null = null
  private backoffAttempt = 0
  private pauseAttempt = 0
  private day = -1
  private callsToday = 0
  private expiryTimer: TimerHandle | null = null
  /** Until when a foreground request refused for want of a slot is owed the next one. */
  private demandUntil = 0
  private readonly listeners = new Set<(s: GovernorSnapshot) => void>()
  private readonly waiters = new Set<() => void>()

  constructor(opts: RateGovernorOptions) {
    this.clock = opts.clock
    this.random = opts.random
    this.recheckMs = opts.recheckMs ?? 15 * 60_000
    this.window = new SendWindow(opts.clock, opts.utilisation ?? 0.9, opts.rpm)
  }

  setRpm(rpm: number): void {
    this.window.setRpm(rpm)
    this.changed(true)
  }

  /** ms until a request of this kind may be sent (0 = now, Infinity = blocked until something changes). */
  delayFor(kind: RequestKind): number {
    this.expire()
    const block = this.blockFor(kind)
    if (block === Infinity) return Infinity
    const wait = Math.max(block, this.window.delay())
    if (kind !== 'poll') return wait
    // A foreground request is owed the next slot: look again shortly (it takes it at its time).
    const owed = this.demandUntil - this.clock.now()
    return owed > 0 ? Math.max(wait, Math.min(owed, DEMAND_RECHECK_MS)) : wait
  }

  /**
   * Reserves a slot if allowed now; returns false otherwise. A foreground request refused only
   * for want of a slot (not by a pause or a stop) is owed the next one (see the top).
   */
  tryAcquire(kind: RequestKind): boolean {
    if (this.delayFor(kind) > 0) {
      if (kind !== 'poll' && this.blockFor(kind) === 0)
        this.demandUntil = this.clock.now() + DEMAND_MS
      return false
    }
    const now = this.clock.now()
    if (kind !== 'poll') this.demandUntil = 0
    this.window.record(now)
    const day = Math.floor(now / DAY_MS)
    if (day !== this.day) {
      this.day = day
      this.callsToday = 0
    }
    this.callsToday += 1
    this.changed(false)
    return true
  }

  /**
   * Waits on the clock for a slot. Rejects at once with the blocking code when stopped or while
   * the quota is exhausted (waiting hours would hang a chart), and when signal aborts.
   */
  acquire(kind: RequestKind, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: TimerHandle | null = null
      const finish = (error: TickdeskError | null): void => {
        this.clock.clearTimeout(timer)
        this.waiters.delete(attempt)
        signal?.removeEventListener('abort', onAbort)
        if (error) reject(error)
        else resolve()
      }
      const onAbort = (): void =>
        finish(new TickdeskError({ code: 'ABORTED', message: 'request aborted' }))
      const attempt = (): void => {
        this.clock.clearTimeout(timer)
        timer = null
        if (signal?.aborted) return onAbort()
        this.expire()
        if (this.state === 'stopped' || this.state === 'quota') {
          return finish(this.blockedError())
        }
        if (this.tryAcquire(kind)) return finish(null)
        const wait = this.delayFor(kind)
        timer = this.clock.setTimeout(attempt, wait === Infinity ? WINDOW_MS : Math.max(1, wait))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiters.add(attempt)
      attempt()
    })
  }

  /** Central policy for every service outcome (see the state table at the top of this file). */
  report(outcome: { ok: true } | { ok: false; error: TickdeskError }): void {
    this.expire()
    const now = this.clock.now()
    if (outcome.ok) {
      if (this.state === 'open') {
        this.backoffAttempt = 0
        this.pauseAttempt = 0
      }
      return
    }
    const e = outcome.error
    const code = String(e.code)
    if (e.status === 401 || code === 'UNAUTHORIZED') {
      this.enter(
        'stopped',
        'UNAUTHORIZED',
        null,
        'The service rejected the API key (401): nothing is sent until the key changes.',
      )
    } else if (ACCOUNT_WIDE_403.has(code)) {
      this.enter(
        'stopped',
        code,
        now + this.recheckMs,
        `The service refused this account (${code}): rechecking at most every ${Math.round(this.recheckMs / 60_000)} min or when settings change.`,
      )
    } else if (QUOTA_429.has(code)) {
      const until = now + (e.retryAfterMs ?? nextQuotaReset(code, now) - now)
      const which = code === 'MONTHLY_LIMIT_EXCEEDED' ? 'Monthly' : 'Daily'
      const reset = e.retryAfterMs === null ? " (no Retry-After: the quota period's UTC reset)" : ''
      this.enter(
        'quota',
        code,
        until,
        `${which} quota exceeded: no requests and no stream reconnects until ${new Date(until).toISOString()}${reset}; an open stream keeps running.`,
      )
    } else if (e.status === 429) {
      if (RATE_429.has(code)) this.window.learnRate()
      const wait =
        e.retryAfterMs ??
        fullJitterDelay(this.pauseAttempt, BACKOFF_BASE_MS, BACKOFF_CAP_MS, this.random)
      this.pauseAttempt += 1
      this.enter(
        'paused',
        code,
        now + wait,
        `Rate limited by the service (${code}): all requests paused for ${Math.ceil(wait / 1000)} s.`,
      )
    } else if ((e.status !== null && e.status >= 500) || TRANSPORT.has(code)) {
      const wait = fullJitterDelay(
        this.backoffAttempt,
        BACKOFF_BASE_MS,
        BACKOFF_CAP_MS,
        this.random,
      )
      this.backoffAttempt += 1
      this.enter(
        'backoff',
        code,
        now + wait,
        `Service unavailable (${code}): retrying REST in ${Math.ceil(wait / 1000)} s.`,
      )
    } else if (this.state === 'open') {
      // Any other 4xx means the service answered: the transport is fine.
      this.backoffAttempt = 0
    }
  }

  /** Key changed or the user asked to retry: leaves every blocking state and wakes waiters. */
  resetAuth(): void {
    this.backoffAttempt = 0
    this.pauseAttempt = 0
    if (this.state !== 'open') this.toOpen()
    this.changed(true)
  }

  snapshot(): GovernorSnapshot {
    this.expire()
    const today = Math.floor(this.clock.now() / DAY_MS) === this.day ? this.callsToday : 0
    return {
      state: this.state,
      code: this.code,
      message: this.message,
      retryAt: this.retryAt,
      usedLastMinute: this.window.used(),
      perMinute: this.window.limit,
      callsToday: today,
      ...(this.window.learnedRpm === null ? {} : { learnedRpm: this.window.learnedRpm }),
    }
  }

  onChange(listener: (s: GovernorSnapshot) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private blockFor(kind: RequestKind): number {
    if (this.state === 'open') return 0
    if (kind === 'poll') return this.blockFor('rest')
    const left = this.retryAt === null ? Infinity : Math.max(0, this.retryAt - this.clock.now())
    switch (this.state) {
      case 'stopped':
      case 'paused':
      case 'quota':
        return left
      case 'backoff':
        return kind === 'rest' ? left : 0
    }
  }

  private enter(state: GovernorState, code: string, retryAt: number | null, message: string): void {
    const current = RANK[this.state]
    if (RANK[state] < current) return
    if (RANK[state] === current && (this.retryAt ?? Infinity) > (retryAt ?? Infinity)) return
    this.state = state
    this.code = code
    this.retryAt = retryAt
    this.message = message
    this.armExpiry()
    this.changed(true)
  }

  /** One timer to the end of the current block; re-armed if it fires early (long waits). */
  private armExpiry(): void {
    this.clock.clearTimeout(this.expiryTimer)
    this.expiryTimer = null
    const retryAt = this.retryAt
    if (retryAt === null) return
    this.expiryTimer = this.clock.setTimeout(
      () => {
        this.expiryTimer = null
        if (this.clock.now() < retryAt && this.retryAt === retryAt) this.armExpiry()
        else this.expire()
      },
      Math.max(0, retryAt - this.clock.now()),
    )
  }

  private expire(): void {
    if (this.state === 'open' || this.retryAt === null || this.clock.now() < this.retryAt) return
    // The service's new day began when its Retry-After said, which need not be our UTC midnight
    // (a service on another day boundary, a clock that differs): calls today count from there.
    if (this.state === 'quota' && this.code === 'DAILY_LIMIT_EXCEEDED') this.callsToday = 0
    this.toOpen()
    this.changed(true)
  }

  private toOpen(): void {
    this.state = 'open'
    this.code = null
    this.retryAt = null
    this.message = ''
    this.clock.clearTimeout(this.expiryTimer)
    this.expiryTimer = null
  }

  private blockedError(): TickdeskError {
    const retryAfterMs = this.retryAt === null ? null : Math.max(0, this.retryAt - this.clock.now())
    return new TickdeskError({
      code: this.code ?? 'UNAUTHORIZED',
      message: this.message,
      retryAfterMs,
    })
  }

  private changed(stateChanged: boolean): void {
    const snap = this.snapshot()
    for (const l of [...this.listeners]) l(snap)
    if (stateChanged) for (const w of [...this.waiters]) w()
  }
}

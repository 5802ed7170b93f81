import type { Clock } from '../util/clock'

/**
 * Fault injection: the ways the real service and the network fail, on demand. State lives in
 * FaultState (read by the REST and stream paths); FaultHooks is the public face tests call.
 */

export interface FailNextOptions {
  status: number
  /** Envelope code; omitted => a bare non-JSON body, like a proxy's 502 page. */
  code?: string
  times?: number
  /** Sent as Retry-After verbatim (delta-seconds or an HTTP date). */
  retryAfterSec?: number | string
  /** Only requests to this path fail, e.g. '/api/v1/market/crypto/quote' or the stream path. */
  path?: string
}

export interface FaultHooks {
  failNext(opts: FailNextOptions): void
  dropSockets(): void
  /**
   * Half-open drop: the service forgets its sockets without closing them (a NAT or a load
   * balancer losing the flow). The client sees a socket that is up and says nothing, ever.
   */
  forgetSockets(): void
  silence(ms: number): void
  /**
   * A stalled service: like silence (no ticks, no pongs) and a fresh handshake goes silent too,
   * its upgrade answered only once the stall is over.
   */
  stall(ms: number): void
  malformed(count: number): void
  slow(ms: number, times?: number): void
  down(): Promise<void>
  up(): Promise<void>
  revokeKey(key: string): void
  /**
   * An account-level error frame on every open socket, e.g. SUBSCRIPTION_EXPIRED or
   * DAILY_LIMIT_EXCEEDED arriving while connected: {"event":"error","code":…,"msg":…}. The
   * socket stays open (whether a service closes it after is not shown).
   */
  accountFrame(code: string, msg?: string): void
  /**
   * The stream stops pushing this symbol (an illiquid one, or a feed the service lost) while
   * REST keeps quoting it; null market: unmute all.
   */
  muteSymbol(market: string | null, symbol?: string): void
  /**
   * The symbol has no quote now (halted, delisted today): REST answers leave it out (`data:
   * null` when none asked has one, under noQuoteAsNull) and the stream pushes nothing for it;
   * null market: all quoted again.
   */
  noQuote(market: string | null, symbol?: string): void
  /**
   * The symbol has not traded yet today (an A-share before its first trade): its quote says
   * last 0, change 0; null market: all traded.
   */
  untraded(market: string | null, symbol?: string): void
  /**
   * A steady trickle of frames the client cannot read, `perSecond` a second on every open
   * socket, beside the pushes (0 stops it): a kind of message the client does not know.
   */
  trickle(perSecond: number): void
  reset(): void
}

interface FailRule {
  status: number
  code: string | undefined
  remaining: number
  retryAfterSec: number | string | undefined
  path: string | undefined
}

export interface InjectedFailure {
  status: number
  code: string | undefined
  retryAfterSec: number | string | undefined
}

export class FaultState {
  private rules: FailRule[] = []
  private silentUntil = 0
  private stalledUntil = 0
  private slowMs = 0
  private slowRemaining = 0
  readonly revoked = new Set<string>()
  /** `market:SYMBOL`s the stream does not push (muteSymbol). */
  readonly muted = new Set<string>()
  /** `market:SYMBOL`s with no quote at all now (noQuote). */
  readonly noQuote = new Set<string>()
  /** `market:SYMBOL`s that have not traded yet today (untraded). */
  readonly untraded = new Set<string>()
  /** Unreadable frames a second on every socket (trickle). */
  tricklePerSecond = 0

  constructor(private readonly clock: Clock) {}

  addFailure(opts: FailNextOptions): void {
    this.rules.push({
      status: opts.status,
      code: opts.code,
      remaining: Math.max(1, opts.times ?? 1),
      retryAfterSec: opts.retryAfterSec,
      path: opts.path,
    })
  }

  /**
   * Consumes the first rule that applies. A rule without a path applies to REST calls only, so a
   * reconnecting stream does not eat a failure a test meant for a quote request.
   */
  takeFailure(path: string, isStream: boolean): InjectedFailure | null {
    const rule = this.rules.find((r) => (r.path === undefined ? !isStream : r.path === path))
    if (!rule) return null
    rule.remaining--
    if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule)
    return { status: rule.status, code: rule.code, retryAfterSec: rule.retryAfterSec }
  }

  silence(ms: number): void {
    this.silentUntil = Math.max(this.silentUntil, this.clock.now() + ms)
  }

  isSilent(): boolean {
    return this.clock.now() < Math.max(this.silentUntil, this.stalledUntil)
  }

  stall(ms: number): void {
    this.stalledUntil = Math.max(this.stalledUntil, this.clock.now() + ms)
  }

  /** How long a handshake arriving now waits before it is answered (0 when not stalled). */
  handshakeHold(): number {
    return Math.max(0, this.stalledUntil - this.clock.now())
  }

  slow(ms: number, times: number | undefined): void {
    this.slowMs = ms
    this.slowRemaining = times ?? Number.POSITIVE_INFINITY
  }

  /** Delay for the next REST response, in ms (0 when not slowed). */
  takeDelay(): number {
    if (this.slowRemaining <= 0 || this.slowMs <= 0) return 0
    this.slowRemaining--
    return this.slowMs
  }

  reset(): void {
    this.rules = []
    this.silentUntil = 0
    this.stalledUntil = 0
    this.slowMs = 0
    this.slowRemaining = 0
    this.revoked.clear()
    this.muted.clear()
    this.noQuote.clear()
    this.untraded.clear()
    this.tricklePerSecond = 0
  }
}

/** What the hooks need from the running server beyond FaultState. */
export interface FaultControls {
  dropSockets(): void
  forgetSockets(): void
  malformed(count: number): void
  closeSocketsOf(key: string): void
  down(): Promise<void>
  up(): Promise<void>
  resetSockets(): void
  accountFrame(code: string, msg: string): void
}

export function createFaultHooks(state: FaultState, controls: FaultControls): FaultHooks {
  return {
    failNext: (opts) => state.addFailure(opts),
    dropSockets: () => controls.dropSockets(),
    forgetSockets: () => controls.forgetSockets(),
    silence: (ms) => state.silence(ms),
    stall: (ms) => state.stall(ms),
    malformed: (count) => controls.malformed(count),
    slow: (ms, times) => state.slow(ms, times),
    down: () => controls.down(),
    up: () => controls.up(),
    revokeKey: (key) => {
      state.revoked.add(key)
      // Open sockets of a revoked key close with 1008 so the client's reconnect meets the 401.
      controls.closeSocketsOf(key)
    },
    accountFrame: (code, msg) =>
      controls.accountFrame(code, msg ?? code.toLowerCase().replace(/_/g, ' ')),
    muteSymbol: (market, symbol) => toggle(state.muted, market, symbol),
    noQuote: (market, symbol) => toggle(state.noQuote, market, symbol),
    untraded: (market, symbol) => toggle(state.untraded, market, symbol),
    trickle: (perSecond) => {
      state.tricklePerSecond = Math.max(0, perSecond)
    },
    reset: () => {
      state.reset()
      controls.resetSockets()
    },
  }
}

/** Adds `market:SYMBOL` to the set; a null market empties it. */
function toggle(set: Set<string>, market: string | null, symbol: string | undefined): void {
  if (market === null) set.clear()
  else set.add(`${market}:${symbol ?? ''}`)
}

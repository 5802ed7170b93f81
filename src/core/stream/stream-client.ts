/**
 * StreamClient: the app's one WebSocket to the market service (ARCHITECTURE: "exactly one
 * WebSocket to the service per running app"). It authenticates the upgrade with X-API-Key
 * (spec: Authentication 2), meters each handshake through the HandshakeBudget (spec: Limits,
 * "the WebSocket handshake counts toward the daily quota and RPM"), keeps the server's
 * subscriptions equal to the desired set, watches liveness and reconnects.
 *
 * States (StreamState) and transitions:
 *
 *   idle ──start()──▶ connecting ──upgrade ok──▶ open
 *                        │  ▲                      │ close / error / silent 30 s / health ping lost
 *                        │  └──timer, checkHealth()─┐
 *                        ▼                         ▼
 *                   (any failure) ──────────▶ reconnecting ──timer──▶ connecting …
 *   401 on upgrade ─▶ closed (halted; setApiKey() ─▶ connecting)
 *   stop()         ─▶ closed (all timers cleared, no reconnect; start() ─▶ connecting)
 *
 * `connecting` also covers waiting for the budget (nextRetryAt() says until when). Waits in
 * `reconnecting` come from stream-retry.ts: full jitter for ordinary drops, >= 15 min after 403,
 * Retry-After after 429, >= 20 s growing to minutes after WS_CONN_LIMIT (the connection cap).
 * The symbol cap keeps the socket (stream-error-frame.ts, 'symbolCap' event); a service that
 * ignores unsubscribe gets a fresh socket with the wanted set (stream-resync.ts). What each
 * failure and refusal leads to (the arrows into reconnecting and closed): stream-failures.ts.
 */
import WebSocket, { type RawData } from 'ws'
import type { IncomingMessage } from 'node:http'
import type { Market } from '../../shared/markets/market'
import type { StreamState } from '../../shared/status'
import type { Clock, TimerHandle } from '../clock'
import { authHeader } from '../rest/auth-header'
import { registerSecret, silentLogger, type Logger } from '../log'
import type { StreamClientOptions, StreamEvents, StreamStats } from './stream-events'
import { StreamEmitter } from './stream-events'
import { StreamCaps } from './stream-caps'
import { StreamFailures, type WaitCause } from './stream-failures'
import { StreamHeartbeat } from './stream-heartbeat'
import { InboundFrames } from './stream-inbound'
import { HOLDABLE_SOCKET, ReadHold } from './stream-read-hold'
import { ResyncSchedule } from './stream-resync'
import { RetrySchedule, STABLE_OPEN_MS } from './stream-retry'
import { SubscriptionBook } from './subscription-book'

export type {
  HandshakeBudget,
  StreamCandle,
  StreamClientOptions,
  StreamEvents,
  StreamStats,
  StreamSymbolCap,
  StreamSymbolError,
} from './stream-events'

/** The longest a handshake is left waiting for an answer (see connect()). */
const MAX_HANDSHAKE_WAIT_MS = 60_000

export class StreamClient {
  private readonly opts: StreamClientOptions
  private readonly clock: Clock
  private readonly log: Logger
  private readonly WS: typeof WebSocket
  private readonly heartbeatMs: number
  private readonly silenceMs: number
  private readonly connectTimeoutMs: number
  /** Handshakes in a row that got no answer at all (a stalled service or a black-holed link). */
  private handshakeTimeouts = 0
  private readonly healthTimeoutMs: number
  private readonly retry: RetrySchedule
  private readonly book = new SubscriptionBook()
  private readonly events: StreamEmitter
  private key: string
  private current: StreamState = 'idle'
  private halt: 'none' | 'stopped' | 'unauthorized' = 'none'
  private ws: WebSocket | null = null
  private closing: WebSocket | null = null // dropped, not closed yet: the next handshake waits
  private everOpened = false
  private connectTimer: TimerHandle | null = null
  private heartbeat: StreamHeartbeat | null = null
  private stableTimer: TimerHandle | null = null
  private healthTimer: TimerHandle | null = null
  private readonly caps: StreamCaps
  private readonly resync: ResyncSchedule
  private resyncing = false
  private connectStartedAt = 0
  /** Bumped by anything received; a health ping is answered when it moves (the clock may not). */
  private heard = 0
  private readonly inbound: InboundFrames
  private readonly readHold: ReadHold
  private readonly counters = { connects: 0, reconnects: 0 }
  /** What a failed handshake, a close or a refusal leads to (stream-failures.ts). */
  private readonly failures: StreamFailures

  constructor(opts: StreamClientOptions) {
    this.opts = opts
    this.clock = opts.clock
    this.log = opts.logger ?? silentLogger
    this.events = new StreamEmitter(this.log)
    this.readHold = new ReadHold()
    this.WS = opts.WebSocketImpl ?? WebSocket
    this.heartbeatMs = opts.heartbeatMs ?? 5_000
    this.silenceMs = opts.silenceTimeoutMs ?? 10_000
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 15_000
    this.healthTimeoutMs = opts.healthTimeoutMs ?? 5_000
    this.retry = new RetrySchedule(opts.clock, opts.random, () => this.connectNow())
    this.resync = new ResyncSchedule(opts.clock, (reason) => this.resyncNow(reason))
    this.caps = new StreamCaps(opts.clock, this.book, this.resync, {
      symbolCap: (cap) => this.emit('symbolCap', cap),
      connectionCap: (error) => {
        this.emit('error', error)
        this.detach()?.terminate()
        this.backoff('connLimit')
      },
    })
    this.inbound = new InboundFrames({
      book: this.book,
      caps: this.caps,
      resync: this.resync,
      log: this.log,
      emit: (event, value) => this.emit(event, value),
      isCurrent: (ws) => ws === this.ws,
      accountRefused: (error) => this.failures.refused(error),
    })
    this.failures = new StreamFailures({
      clock: opts.clock,
      log: this.log,
      budget: opts.budget,
      caps: this.caps,
      retry: this.retry,
      socket: () => this.ws,
      halted: () => this.halt !== 'none',
      haltUnauthorized: () => (this.halt = 'unauthorized'),
      detach: () => this.detach(),
      error: (error) => this.emit('error', error),
      setState: (state) => this.setState(state),
      backoff: (cause, waitMs) => this.backoff(cause, waitMs),
    })
    this.key = opts.apiKey
    registerSecret(opts.apiKey)
  }

  /**
   * Desired subscriptions. The client diffs them against what the server has and sends batched
   * {action:'subscribe'|'unsubscribe', market, symbols} per market (spec: WebSocket stream; the
   * unsubscribe message is our guess, the interface does not show one).
   */
  setSubscriptions(byMarket: Map<Market, Set<string>>): void {
    this.book.setDesired(byMarket)
    if (this.ws !== null && this.ws.readyState === WebSocket.OPEN) this.sync(this.ws)
  }

  start(): void {
    if (this.current !== 'idle' && this.halt !== 'stopped') return
    this.halt = 'none'
    this.connectNow()
  }

  /** Closes the socket and clears every timer; nothing reconnects until start(). */
  async stop(): Promise<void> {
    this.halt = 'stopped'
    this.retry.clear()
    this.resync.clear()
    const ws = this.detach()
    this.setState('closed')
    if (ws === null || ws.readyState === WebSocket.CLOSED) return
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve())
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate()
      else ws.close(1000, 'client stop')
    })
  }

  /** New key: reconnect with it. Also the only way out of the 401 halt. */
  setApiKey(key: string): void {
    this.key = key
    registerSecret(key)
    if (this.halt === 'stopped' || this.current === 'idle') return
    this.halt = 'none'
    this.retry.resetAttempts()
    this.detach()?.terminate()
    this.connectNow()
  }

  /** After a system resume (sleep-detector): prove the socket alive now, or reconnect at once. */
  checkHealth(): void {
    if (this.halt !== 'none' || this.current === 'idle') return
    const now = this.clock.now()
    const ws = this.ws
    if (ws !== null && ws.readyState === WebSocket.OPEN) {
      const heardBefore = this.heard
      this.heartbeat?.pingNow()
      this.clock.clearTimeout(this.healthTimer)
      this.healthTimer = this.clock.setTimeout(() => {
        if (ws !== this.ws || this.heard !== heardBefore) return
        this.log.log('warn', 'stream: no answer to health ping, reconnecting')
        this.detach()?.terminate()
        this.connectNow()
      }, this.healthTimeoutMs)
      return
    }
    if (ws !== null) {
      if (now - this.connectStartedAt < this.connectTimeoutMs) return
      this.detach()?.terminate()
      this.connectNow()
      return
    }
    if (this.retry.at === null) return
    // Timers may be far off after a clock jump: ordinary backoff is cut short, a policy wait
    // (403, 429, WS_CONN_LIMIT, budget) is kept but re-armed against the wall clock.
    if (this.retry.cutShortable || this.retry.at <= now) this.connectNow()
    else this.retry.rearm(now)
  }

  state(): StreamState {
    return this.current
  }

  /**
   * Reads nothing more from the socket until the returned release is called (or the socket is
   * let go): what the service sends meanwhile is read in one go then (stream-read-hold.ts). For
   * a caller that could not show it sooner anyway.
   */
  holdReads(): () => void {
    if (this.ws !== null) this.readHold.hold(this.ws)
    return this.release
  }

  private readonly release = (): void => this.readHold.release()

  nextRetryAt(): number | null {
    return this.retry.at
  }

  stats(): StreamStats {
    return { ...this.counters, ...this.inbound.counters }
  }

  /**
   * tick (source 'stream'), candle, state, open, symbolError, error; returns the unsubscribe.
   * Every tick comes in one reused QuoteUpdate: copy what you keep (its `fields` may be kept).
   */
  on<K extends keyof StreamEvents>(event: K, cb: (value: StreamEvents[K]) => void): () => void {
    return this.events.on(event, cb)
  }

  private emit<K extends keyof StreamEvents>(event: K, value: StreamEvents[K]): void {
    this.events.emit(event, value)
  }

  private setState(next: StreamState): void {
    if (next === this.current) return
    this.current = next
    this.emit('state', next)
  }

  private connectNow(): void {
    this.retry.clear()
    if (this.halt !== 'none') return
    this.setState('connecting')
    // Never two of our sockets at the service (Free plan: 1, spec: Limits); found by test/faults.
    if (this.closing !== null && this.closing.readyState !== WebSocket.CLOSED) {
      this.closing.once('close', () => this.ws === null && !this.retry.at && this.connectNow())
      return
    }
    // A refused handshake is owed the budget's next slot (rate-governor): ask, then wait for it.
    const budget = this.opts.budget
    if (!budget.tryAcquire('handshake'))
      return this.retry.arm('budget', Math.max(budget.delayFor('handshake'), 1))
    this.connectStartedAt = this.clock.now()
    const ws = new this.WS(this.opts.url, {
      headers: authHeader(this.key, this.opts.auth),
      ...HOLDABLE_SOCKET,
    })
    this.ws = ws
    ws.on('open', () => this.onOpen(ws))
    ws.on('message', (data: RawData) => this.onMessage(ws, data))
    ws.on('pong', () => this.onAlive(ws))
    ws.on('ping', () => this.onAlive(ws))
    const failures = this.failures
    ws.on('close', (code: number, reason: Buffer) => failures.closed(ws, code, reason.toString()))
    ws.on('error', (err: Error) => failures.socketError(ws, err))
    ws.on('unexpected-response', (_req, res: IncomingMessage) => failures.rejected(ws, res))
    // A service that holds handshakes (stalled) answers the one still waiting the moment it
    // recovers; each timeout in a row waits twice as long (15, 30, 60 s), so a long stall costs
    // about one handshake a minute, not one every few seconds, while REST keeps prices coming.
    const timeoutMs = Math.min(
      this.connectTimeoutMs * 2 ** this.handshakeTimeouts,
      MAX_HANDSHAKE_WAIT_MS,
    )
    this.connectTimer = this.clock.setTimeout(() => {
      if (ws !== this.ws || ws.readyState === WebSocket.OPEN) return
      this.handshakeTimeouts++
      failures.handshakeTimedOut()
    }, timeoutMs)
  }

  private onOpen(ws: WebSocket): void {
    if (ws !== this.ws) return
    this.clock.clearTimeout(this.connectTimer)
    this.handshakeTimeouts = 0
    const reconnect = this.everOpened
    this.everOpened = true
    this.counters.connects++
    if (reconnect) this.counters.reconnects++
    this.opts.budget.report({ ok: true })
    this.setState('open')
    this.sync(ws)
    this.heartbeat = new StreamHeartbeat(
      this.clock,
      this.heartbeatMs,
      this.silenceMs,
      () => this.sendPing(ws),
      (silentMs) => {
        this.log.log('warn', 'stream silent, reconnecting', { silentMs })
        this.detach()?.terminate()
        this.backoff('drop')
      },
    )
    this.stableTimer = this.clock.setTimeout(() => this.retry.resetAttempts(), STABLE_OPEN_MS)
    const resync = this.resyncing
    this.resyncing = false
    this.log.log('info', 'stream open', { reconnect, resync })
    this.emit('open', { reconnect, resync })
  }

  private onAlive(ws: WebSocket): void {
    if (ws !== this.ws) return
    this.heartbeat?.alive(this.clock.now())
    this.heard++
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    if (ws !== this.ws) return
    const now = this.clock.now()
    this.heartbeat?.alive(now)
    this.heard++
    this.inbound.read(ws, data, now)
  }

  /** A fresh socket subscribing only the wanted set; the old one closes first (one socket). */
  private resyncNow(reason: string): void {
    const ws = this.ws
    if (ws === null || ws.readyState !== WebSocket.OPEN || this.halt !== 'none') return
    this.log.log('info', 'stream: resync', { reason })
    this.resyncing = true
    this.detach()
    ws.close(1000, 'resync')
    this.connectNow()
  }

  private backoff(cause: WaitCause, waitMs?: number | null): void {
    this.retry.arm(cause, waitMs ?? null)
    this.setState('reconnecting')
  }

  private sendPing(ws: WebSocket): void {
    try {
      ws.ping()
    } catch (e) {
      this.log.log('debug', 'stream ping failed', { error: String(e) })
    }
  }

  /**
   * The market goes by another name now: its symbols are subscribed afresh under it, at the end
   * of this run (the caller's new plan, set meanwhile, is what gets subscribed; not the old one).
   */
  renamed(market: Market): void {
    this.book.forgetMarket(market)
    queueMicrotask(() => {
      if (this.ws !== null && this.ws.readyState === WebSocket.OPEN) this.sync(this.ws)
    })
  }

  private sync(ws: WebSocket): void {
    const name = this.opts.marketName
    for (const msg of this.book.diff(this.clock.now())) {
      const wire = name === undefined ? msg : { ...msg, market: name(msg.market) }
      ws.send(JSON.stringify(wire))
      if (msg.action === 'subscribe') this.emit('subscribeSent', { market: msg.market })
    }
  }

  /** Forgets the current socket (its late events are ignored) and its timers; returns it. */
  private detach(): WebSocket | null {
    const ws = this.ws
    this.ws = null
    this.readHold.release()
    if (ws !== null && ws.readyState !== WebSocket.CLOSED) this.closing = ws
    this.heartbeat?.stop()
    this.heartbeat = null
    this.clock.clearTimeout(this.connectTimer)
    this.clock.clearTimeout(this.stableTimer)
    this.clock.clearTimeout(this.healthTimer)
    this.caps.clear()
    this.connectTimer = this.stableTimer = this.healthTimer = null
    this.book.resetServerSide()
    return ws
  }
}

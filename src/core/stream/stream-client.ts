/**
 * StreamClient: the app's one WebSocket to the market service ("exactly one WebSocket to the
 * service per running app": a second one is the Free plan's refused connection, spec: Limits).
 * It authenticates the upgrade with X-API-Key (spec: Authentication 2), meters each handshake
 * through the HandshakeBudget (spec: Limits, "the WebSocket handshake counts toward the daily
 * quota and RPM"), keeps the server's subscriptions equal to the desired set, watches liveness
 * and reconnects.
 *
 * Its lifecycle is the state machine of stream-lifecycle.ts (the diagram is drawn there): every
 * move goes through `step(event)`. Waits in `reconnecting` come from stream-retry.ts: full
 * jitter for ordinary drops, >= 15 min after 403, Retry-After after 429, >= 20 s growing to
 * minutes after WS_CONN_LIMIT (the connection cap). What each failure and refusal leads to:
 * stream-failures.ts. The symbol cap keeps the socket (stream-caps.ts, 'symbolCap' event); a
 * service that ignores unsubscribe gets a fresh socket with the wanted set (stream-resync.ts); a
 * service that drops sockets which send nothing of their own gets keep-alives
 * (stream-keepalive.ts). After a system resume the socket is proven alive or replaced
 * (stream-health.ts).
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
import { StreamHealth } from './stream-health'
import { pingWith, StreamHeartbeat } from './stream-heartbeat'
import { InboundFrames } from './stream-inbound'
import { KeepAlive, KEEPALIVE_MS } from './stream-keepalive'
import { halted, INITIAL, streamState, transition, type LifecycleEvent } from './stream-lifecycle'
import { HOLDABLE_SOCKET, ReadHold } from './stream-read-hold'
import { ResyncSchedule } from './stream-resync'
import { RetrySchedule, STABLE_OPEN_MS } from './stream-retry'
import { SubscriptionBook } from './subscription-book'
import { closeWithin, HandshakeTimer } from './stream-socket'

export type {
  HandshakeBudget,
  StreamCandle,
  StreamClientOptions,
  StreamEvents,
  StreamStats,
  StreamSymbolCap,
  StreamSymbolError,
} from './stream-events'

export class StreamClient {
  private readonly opts: StreamClientOptions
  private readonly clock: Clock
  private readonly log: Logger
  private readonly WS: typeof WebSocket
  private readonly heartbeatMs: number
  private readonly silenceMs: number
  private readonly connectTimeoutMs: number
  private readonly retry: RetrySchedule
  private readonly book = new SubscriptionBook()
  private readonly events: StreamEmitter
  private key: string
  private life = INITIAL
  private ws: WebSocket | null = null
  private closing: WebSocket | null = null // dropped, not closed yet: the next handshake waits
  private openedAt = 0
  private everOpened = false
  private readonly handshake: HandshakeTimer
  private heartbeat: StreamHeartbeat | null = null
  private stableTimer: TimerHandle | null = null
  private readonly caps: StreamCaps
  private readonly resync: ResyncSchedule
  private resyncing = false
  private readonly inbound: InboundFrames
  private readonly readHold: ReadHold
  private readonly keepAlive = new KeepAlive()
  private readonly health: StreamHealth
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
    this.handshake = new HandshakeTimer(opts.clock, this.connectTimeoutMs)
    this.retry = new RetrySchedule(opts.clock, opts.random, () => this.connectNow('due'))
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
      ...(opts.readingOf ? { readingOf: opts.readingOf } : {}),
      keepAliveAsked: () => this.keepAlive.asked('keep-alive'),
    })
    this.failures = new StreamFailures({
      clock: opts.clock,
      log: this.log,
      budget: opts.budget,
      caps: this.caps,
      retry: this.retry,
      socket: () => this.ws,
      halted: () => halted(this.life),
      haltUnauthorized: () => this.step('unauthorized'),
      detach: () => this.detach(),
      error: (error) => this.emit('error', error),
      closedByService: (reason) => this.keepAlive.closedByService(this.openFor(), reason),
      backoff: (cause, waitMs) => this.backoff(cause, waitMs),
    })
    this.health = new StreamHealth({
      clock: opts.clock,
      log: this.log,
      timeoutMs: opts.healthTimeoutMs ?? 5_000,
      connectTimeoutMs: this.connectTimeoutMs,
      socket: () => this.ws,
      connectStartedAt: () => this.openedAt,
      ping: () => this.heartbeat?.pingNow(),
      retry: this.retry,
      replace: () => {
        this.detach()?.terminate()
        this.connectNow('fresh')
      },
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
    if (
      this.life.state !== 'idle' &&
      !(this.life.state === 'closed' && this.life.why === 'stopped')
    )
      return
    this.connectNow('start')
  }

  /** Closes the socket and clears every timer; nothing reconnects until start(). */
  async stop(): Promise<void> {
    this.step('stop')
    this.retry.clear()
    this.resync.clear()
    this.health.clear()
    const ws = this.detach()
    if (ws === null || ws.readyState === WebSocket.CLOSED) return
    await closeWithin(ws, this.closeWaitMs())
  }

  /** New key: reconnect with it. Also the only way out of the 401 halt. */
  setApiKey(key: string): void {
    this.key = key
    registerSecret(key)
    const next = transition(this.life, 'newKey')
    if (next.state !== 'connecting') return
    this.retry.resetAttempts()
    this.detach()?.terminate()
    this.connectNow('newKey')
  }

  /** After a system resume (sleep-detector): prove the socket alive now, or reconnect at once. */
  checkHealth(): void {
    if (halted(this.life) || this.life.state === 'idle') return
    this.health.check()
  }

  state(): StreamState {
    return streamState(this.life)
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
    return {
      ...this.counters,
      ...this.inbound.counters,
      ...this.inbound.router.counters,
      keepAlive: this.keepAlive.on,
    }
  }

  /** Symbols pushed that matched nothing asked, in the service's spelling (a few). */
  unmatchedSymbols(): string[] {
    return this.inbound.router.unmatchedSymbols()
  }

  /**
   * tick (source 'stream'), candle, state, open, symbolError, error; returns the unsubscribe.
   * Every tick comes in one reused QuoteUpdate: copy what you keep (its `fields` may be kept).
   */
  on<K extends keyof StreamEvents>(event: K, cb: (value: StreamEvents[K]) => void): () => void {
    return this.events.on(event, cb)
  }

  /**
   * The market goes by another name now: its symbols are subscribed afresh under it, after the
   * old name's are unsubscribed, at the end of this run (the caller's new plan, set meanwhile,
   * is what gets subscribed; not the old one).
   */
  renamed(_market: Market): void {
    queueMicrotask(() => {
      if (this.ws !== null && this.ws.readyState === WebSocket.OPEN) this.sync(this.ws)
    })
  }

  private emit<K extends keyof StreamEvents>(event: K, value: StreamEvents[K]): void {
    this.events.emit(event, value)
  }

  /** The lifecycle's one way forward (stream-lifecycle.ts); the listeners hear a new state. */
  private step(event: LifecycleEvent): void {
    const before = this.life.state
    this.life = transition(this.life, event)
    if (this.life.state !== before) this.emit('state', this.life.state)
  }

  private connectNow(event: LifecycleEvent): void {
    this.retry.clear()
    this.step(event)
    if (this.life.state !== 'connecting') return
    // Never two of our sockets at the service (Free plan: 1, spec: Limits); found by test/faults.
    if (this.closing !== null && this.closing.readyState !== WebSocket.CLOSED) {
      this.closing.once('close', () => this.ws === null && !this.retry.at && this.connectNow('due'))
      return
    }
    // A refused handshake is owed the budget's next slot (rate-governor): ask, then wait for it.
    const budget = this.opts.budget
    if (!budget.tryAcquire('handshake'))
      return this.retry.arm('budget', Math.max(budget.delayFor('handshake'), 1))
    this.openedAt = this.clock.now()
    const ws = new this.WS(this.opts.url, {
      headers: authHeader(this.key, this.opts.auth),
      ...HOLDABLE_SOCKET,
    })
    this.ws = ws
    this.wire(ws)
    this.handshake.arm(
      () => ws === this.ws && ws.readyState !== WebSocket.OPEN,
      () => this.failures.handshakeTimedOut(),
    )
  }

  private wire(ws: WebSocket): void {
    const failures = this.failures
    ws.on('open', () => this.onOpen(ws))
    ws.on('message', (data: RawData) => this.onMessage(ws, data))
    ws.on('pong', () => this.onAlive(ws))
    ws.on('ping', () => this.onAlive(ws))
    ws.on('close', (code: number, reason: Buffer) => failures.closed(ws, code, reason.toString()))
    ws.on('error', (err: Error) => failures.socketError(ws, err))
    ws.on('unexpected-response', (_req, res: IncomingMessage) => failures.rejected(ws, res))
  }

  private onOpen(ws: WebSocket): void {
    if (ws !== this.ws) return
    this.handshake.answered()
    const reconnect = this.everOpened
    this.everOpened = true
    this.counters.connects++
    if (reconnect) this.counters.reconnects++
    this.openedAt = this.clock.now()
    this.opts.budget.report({ ok: true })
    this.step('opened')
    this.sync(ws)
    this.heartbeat = new StreamHeartbeat(
      this.clock,
      this.keepAlive.on ? Math.min(this.heartbeatMs, KEEPALIVE_MS) : this.heartbeatMs,
      this.silenceMs,
      () => pingWith(ws, this.keepAlive, this.log),
      (silentMs) => {
        this.log.log('warn', 'stream silent, reconnecting', { silentMs })
        this.detach()?.terminate()
        this.backoff('drop')
      },
    )
    // An open, healthy minute (the heartbeat drops a silent one) proves the link: the backoff
    // ladders start over.
    this.stableTimer = this.clock.setTimeout(() => this.retry.resetAttempts(), STABLE_OPEN_MS)
    const resync = this.resyncing
    this.resyncing = false
    this.log.log('info', 'stream open', { reconnect, resync, keepAlive: this.keepAlive.on })
    this.emit('open', { reconnect, resync })
  }

  private onAlive(ws: WebSocket): void {
    if (ws !== this.ws) return
    this.heartbeat?.alive(this.clock.now())
    this.health.heard()
  }

  private onMessage(ws: WebSocket, data: RawData): void {
    if (ws !== this.ws) return
    const now = this.clock.now()
    this.heartbeat?.alive(now)
    this.health.heard()
    this.inbound.read(ws, data, now)
  }

  /** A fresh socket subscribing only the wanted set; the old one closes first (one socket). */
  private resyncNow(reason: string): void {
    const ws = this.ws
    if (ws === null || ws.readyState !== WebSocket.OPEN || halted(this.life)) return
    this.log.log('info', 'stream: resync', { reason })
    this.resyncing = true
    this.detach()
    ws.close(1000, 'resync')
    this.connectNow('fresh')
  }

  private backoff(cause: WaitCause, waitMs?: number | null): void {
    this.retry.arm(cause, waitMs ?? null)
    this.step('dropped')
  }

  private sync(ws: WebSocket): void {
    const name = this.opts.marketName ?? ((market: Market): string => market)
    for (const msg of this.book.diff(this.clock.now(), name)) {
      ws.send(JSON.stringify({ action: msg.action, market: msg.wire, symbols: msg.symbols }))
      if (msg.action === 'subscribe') this.emit('subscribeSent', { market: msg.market })
    }
  }

  /** How long the socket has been open (0 while it is not). */
  private openFor(): number {
    return this.life.state === 'open' ? this.clock.now() - this.openedAt : 0
  }

  /** A clean close waits for the service's answer this long, then the socket is dropped. */
  private closeWaitMs(): number {
    return Math.min(1_000, this.silenceMs)
  }

  /** Forgets the current socket (its late events are ignored) and its timers; returns it. */
  private detach(): WebSocket | null {
    const ws = this.ws
    this.ws = null
    this.readHold.release()
    if (ws !== null && ws.readyState !== WebSocket.CLOSED) this.closing = ws
    this.heartbeat?.stop()
    this.heartbeat = null
    this.handshake.clear()
    this.clock.clearTimeout(this.stableTimer)
    this.health.clear()
    this.caps.clear()
    this.stableTimer = null
    this.book.resetServerSide()
    return ws
  }
}

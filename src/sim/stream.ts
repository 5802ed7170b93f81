import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Clock, TimerHandle } from '../util/clock'
import type { ServiceBehaviour } from './behaviour'
import { controlFrame, type Dialect } from './dialects'
import type { FaultState } from './faults'
import { injectedDenial, type Denial, type Gate } from './gate'
import { parseClientMessage } from './socket/client-messages'
import { apiKeyFrom, type KeyRecord } from './plans-and-keys'
import { SIM_PLANS, type SimPlan } from './plans'
import type { PriceBook } from './market/price-walk'
import { TickSource } from './market/tick-source'
import { rejectUpgrade } from './envelope'
import type { ServedPrices } from './served-prices'
import type { StatsCounter } from './stats'
import { heartbeat } from './socket/stream-liveness'
import { ghostCount, type Peer } from './socket/stream-peer'
import { Pushes, UNREADABLE } from './socket/stream-pushes'
import { Subscriptions } from './socket/stream-subscribe'

/**
 * The WebSocket stream at /api/v1/market/stream (spec: WebSocket stream, Events, Limits).
 *
 * Socket lifecycle: upgrade -> [401/403/429 rejected | over connection cap: WS_CONN_LIMIT frame,
 * close 1008 | OPEN] -> subscribed symbols tick every tickIntervalMs -> closed by the client,
 * by a missed heartbeat (terminate), by a keep-alive the service demands and did not get
 * (stream-liveness.ts), by dropSockets/down, or by revoking its key (1008).
 * Liveness: each heartbeat marks the peer not-alive and pings; any client message, pong frame or
 * ping frame marks it alive again; a peer still not-alive at the next heartbeat is terminated.
 * Parts: what subscribes do (stream-subscribe.ts), what is pushed and recorded
 * (stream-pushes.ts), the heartbeat and keep-alive demands (stream-liveness.ts).
 */

export const STREAM_PATH = '/api/v1/market/stream'

export interface StreamOptions {
  book: PriceBook
  dialect: Dialect
  behaviour: ServiceBehaviour
  /** The per-key symbol cap by plan, when a test wants the service's own number. */
  wsSymbolsOverride?: Partial<Record<SimPlan, number>> | undefined
  clock: Clock
  gate: Gate
  faults: FaultState
  stats: StatsCounter
  served: ServedPrices
  seed: number
  tickIntervalMs: number
  heartbeatMs: number
  candleEveryMs: number
  requestId: (req: IncomingMessage) => string
}

const GARBAGE = ['{"type":"tick","symbol":', UNREADABLE, '{"event":"mystery","data":{"n":1}}']
const TRICKLE_EVERY_MS = 1_000

export class StreamHub {
  private readonly wss = new WebSocketServer({ noServer: true, autoPong: false })
  private readonly peers = new Set<Peer>()
  private readonly forgotten = new Set<Peer>()
  private readonly timers: TimerHandle[] = []
  private readonly pushes: Pushes
  private readonly subscriptions: Subscriptions
  private closed = false

  constructor(private readonly o: StreamOptions) {
    const send = (peer: Peer, frame: string): void => this.send(peer, frame)
    this.pushes = new Pushes({ ...o, source: new TickSource(o.book, o.seed), send })
    this.subscriptions = new Subscriptions({
      ...o,
      peers: () => this.peers,
      send,
      snapshot: (peer, added) => this.pushes.snapshot(peer, added),
    })
    this.every(o.tickIntervalMs, 0, () => this.quiet() || this.pushes.tick(this.peers))
    this.every(o.candleEveryMs, 1, () => this.quiet() || this.pushes.candles(this.peers))
    this.every(o.heartbeatMs, 2, () => this.quiet() || heartbeat(this.peers, { ...o, send }))
    this.every(TRICKLE_EVERY_MS, 3, () => this.trickle())
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const requestId = this.o.requestId(req)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== STREAM_PATH) {
      rejectUpgrade(socket, { status: 404, code: 'NOT_FOUND', message: 'no such path' }, requestId)
      return
    }
    const key = apiKeyFrom(req.headers, url)
    this.o.stats.request('ws', key)
    const injected = this.o.faults.takeFailure(STREAM_PATH, true)
    const admission = injected ? null : this.o.gate.admit(key, null)
    if (!admission?.ok) {
      const denial: Denial = admission?.denial ?? injectedDenial(injected)
      this.o.stats.status(denial.status, key, isOverLimit(denial))
      rejectUpgrade(socket, denial, requestId)
      return
    }
    const record = admission.record
    const upgrade = (): void => {
      if (this.closed || socket.destroyed) return
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, record))
    }
    // A stalled service answers the upgrade only once the stall is over.
    const hold = this.o.faults.handshakeHold()
    if (hold > 0) this.o.clock.setTimeout(upgrade, hold)
    else upgrade()
  }

  private accept(ws: WebSocket, key: KeyRecord): void {
    const cap = SIM_PLANS[key.plan].wsConnections
    const open = [...this.peers].filter((p) => p.key.key === key.key).length
    if (open >= cap) {
      ws.send(
        controlFrame('error', {
          code: 'WS_CONN_LIMIT',
          message: `connection cap of ${cap} reached`,
        }),
      )
      ws.close(1008, 'WS_CONN_LIMIT')
      return
    }
    const now = this.o.clock.now()
    const peer: Peer = {
      ...{ ws, key, subs: new Map(), ghosts: new Map(), alive: true, garbage: 0 },
      ...{ forgotten: false, lastClientMessageAt: now, pongOwed: false, openedAt: now },
    }
    this.peers.add(peer)
    this.o.stats.socketOpened(key.key)
    this.listen(peer)
  }

  private listen(peer: Peer): void {
    const ws = peer.ws
    ws.on('message', (data) => {
      if (!peer.forgotten) this.onMessage(peer, data.toString())
    })
    ws.on('pong', () => (peer.alive = true))
    ws.on('ping', (data) => {
      peer.alive = true
      // autoPong is off so silence() can also swallow pongs.
      if (peer.forgotten || this.o.faults.isSilent() || ws.readyState !== ws.OPEN) return
      ws.pong(data)
    })
    ws.on('error', () => undefined)
    ws.on('close', () => {
      this.forgotten.delete(peer)
      if (!this.peers.delete(peer)) return
      this.o.stats.socketClosed(peer.key.key)
      this.o.stats.subscribed(-peer.subs.size)
    })
  }

  private onMessage(peer: Peer, text: string): void {
    peer.alive = true
    peer.lastClientMessageAt = this.o.clock.now()
    const cmd = parseClientMessage(text, this.o.behaviour)
    switch (cmd.kind) {
      case 'pong':
        if (cmd.byAction) peer.pongOwed = false
        return
      case 'ping':
        return this.send(peer, controlFrame('pong', { ts: this.o.clock.now() }))
      case 'malformed':
        this.o.stats.malformedClientFrame()
        return this.send(
          peer,
          controlFrame('error', { code: 'INVALID_REQUEST', message: cmd.reason }),
        )
      case 'unknown-market':
        return this.subscriptions.unknownMarket(peer, cmd.market, cmd.symbols)
      case 'unsubscribe':
        return this.subscriptions.unsubscribe(peer, cmd.market, cmd.name, cmd.symbols)
      case 'subscribe':
        return this.subscriptions.subscribe(peer, cmd.market, cmd.symbols)
    }
  }

  /**
   * An account-level error frame on every open socket (the account expired, the quota ran out
   * while connected): the socket stays open, as a service that only tells would leave it.
   */
  accountFrame(code: string, msg: string): void {
    for (const peer of this.peers) this.send(peer, controlFrame('error', { code, msg }))
  }

  /** Every `market:SYMBOL` some socket is subscribed to now. */
  subscribedKeys(): Set<string> {
    const out = new Set<string>()
    for (const peer of this.peers) for (const key of peer.subs.keys()) out.add(key)
    return out
  }

  /** Symbols held under market names the service does not know, over every socket. */
  ghostSubscriptions(): number {
    let n = 0
    for (const peer of this.peers) n += ghostCount(peer)
    return n
  }

  /** Every outgoing frame passes here: silence swallows it, malformed() replaces it. */
  private send(peer: Peer, frame: string): void {
    if (this.o.faults.isSilent() || peer.ws.readyState !== peer.ws.OPEN) return
    if (peer.garbage > 0) {
      peer.garbage--
      peer.ws.send(GARBAGE[peer.garbage % GARBAGE.length] as string)
      return
    }
    peer.ws.send(frame)
  }

  /** True while the service says nothing (silence, stall): a beat's work is skipped. */
  private quiet(): boolean {
    return this.o.faults.isSilent()
  }

  private trickle(): void {
    const n = this.o.faults.tricklePerSecond
    if (n <= 0 || this.quiet()) return
    for (const peer of this.peers) for (let i = 0; i < n; i++) this.send(peer, UNREADABLE)
  }

  /** Self-rescheduling timer (never setInterval for network work: a late tick must not pile up). */
  private every(ms: number, slot: number, fn: () => void): void {
    const run = (): void => {
      if (this.closed) return
      fn()
      this.timers[slot] = this.o.clock.setTimeout(run, ms)
    }
    this.timers[slot] = this.o.clock.setTimeout(run, ms)
  }

  malformedNext(count: number): void {
    for (const peer of this.peers) peer.garbage = count
  }

  clearMalformed(): void {
    for (const peer of this.peers) peer.garbage = 0
  }

  dropAll(): void {
    for (const peer of this.peers) peer.ws.terminate()
  }

  /** The half-open drop: sockets stay up on both ends, but the service never speaks on them. */
  forgetAll(): void {
    for (const peer of this.peers) {
      peer.forgotten = true
      this.forgotten.add(peer)
      this.o.stats.socketClosed(peer.key.key)
      this.o.stats.subscribed(-peer.subs.size)
    }
    this.peers.clear()
  }

  closeKey(key: string): void {
    for (const peer of this.peers) if (peer.key.key === key) peer.ws.close(1008, 'API key revoked')
  }

  close(): void {
    this.closed = true
    for (const t of this.timers) this.o.clock.clearTimeout(t)
    this.dropAll()
    for (const peer of this.forgotten) peer.ws.terminate()
    this.wss.close()
  }
}

/** A refusal for being over a limit (spec: Errors' 429 codes), whatever its status. */
export function isOverLimit(d: Denial): boolean {
  return d.code !== null && /LIMIT_EXCEEDED$/.test(d.code)
}

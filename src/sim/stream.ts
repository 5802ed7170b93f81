import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Clock, TimerHandle } from '../util/clock'
import type { ServiceBehaviour } from './behaviour'
import { candleFrames, controlFrame, tickFrames, type Dialect, type TickPush } from './dialects'
import type { FaultState } from './faults'
import { injectedDenial, scopeDenial, type Denial, type Gate } from './gate'
import { parseClientMessage } from './client-messages'
import { nameOf } from './market-names'
import { findInstrument, type Instrument, type SimMarket } from './market/instruments'
import { apiKeyFrom, type KeyRecord, type Scope } from './plans-and-keys'
import { SIM_PLANS, type SimPlan } from './plans'
import type { PriceBook } from './market/price-walk'
import { TickSource } from './market/tick-source'
import { rejectUpgrade } from './envelope'
import type { StatsCounter } from './stats'

/**
 * The WebSocket stream at /api/v1/market/stream (spec: WebSocket stream, Events, Limits).
 *
 * Socket lifecycle: upgrade -> [401/403/429 rejected | over connection cap: WS_CONN_LIMIT frame,
 * close 1008 | OPEN] -> subscribed symbols tick every tickIntervalMs -> closed by the client,
 * by a missed heartbeat (terminate), by dropSockets/down, or by revoking its key (1008).
 * Liveness: each heartbeat marks the peer not-alive and pings; any client message, pong frame or
 * ping frame marks it alive again; a peer still not-alive at the next heartbeat is terminated.
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
  seed: number
  tickIntervalMs: number
  heartbeatMs: number
  candleEveryMs: number
  requestId: (req: IncomingMessage) => string
}

interface Peer {
  ws: WebSocket
  key: KeyRecord
  subs: Map<string, Instrument>
  alive: boolean
  garbage: number
  /** forgetAll(): the service no longer knows this socket; it stays open and says nothing. */
  forgotten: boolean
}

const GARBAGE = [
  '{"type":"tick","symbol":',
  '{"type":"tick","symbol":42,"last":"abc","ts":"yesterday"}',
  '{"event":"mystery","data":{"n":1}}',
]

function scopeOf(market: SimMarket): Scope {
  if (market === 'crypto' || market === 'usdt-futures') return 'crypto'
  if (market === 'futures' || market === 'agri') return market
  return 'multi'
}

export class StreamHub {
  private readonly wss = new WebSocketServer({ noServer: true, autoPong: false })
  private readonly peers = new Set<Peer>()
  private readonly forgotten = new Set<Peer>()
  private readonly timers: TimerHandle[] = []
  private readonly source: TickSource
  private closed = false

  constructor(private readonly o: StreamOptions) {
    this.source = new TickSource(o.book, o.seed)
    this.every(o.tickIntervalMs, 0, () => this.tick())
    this.every(o.candleEveryMs, 1, () => this.candles())
    this.every(o.heartbeatMs, 2, () => this.heartbeat())
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
      this.o.stats.status(denial.status, key)
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
    const peer: Peer = { ws, key, subs: new Map(), alive: true, garbage: 0, forgotten: false }
    this.peers.add(peer)
    this.o.stats.socketOpened(key.key)
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
      this.o.stats.socketClosed(key.key)
      this.o.stats.subscribed(-peer.subs.size)
    })
  }

  private onMessage(peer: Peer, text: string): void {
    peer.alive = true
    const cmd = parseClientMessage(text, this.o.behaviour.marketNames)
    switch (cmd.kind) {
      case 'pong':
        return
      case 'ping':
        return this.send(peer, controlFrame('pong', { ts: this.o.clock.now() }))
      case 'malformed':
        this.o.stats.malformedClientFrame()
        return this.error(peer, { code: 'INVALID_REQUEST', message: cmd.reason })
      case 'unknown-market':
        return this.unknownMarket(peer, cmd.market, cmd.symbols)
      case 'unsubscribe':
        return this.unsubscribe(peer, cmd.market, cmd.symbols)
      case 'subscribe':
        return this.subscribe(peer, cmd.market, cmd.symbols)
    }
  }

  /** A subscribe naming a market this service does not know (ServiceBehaviour.unknownMarket). */
  private unknownMarket(peer: Peer, market: unknown, symbols: string[]): void {
    if (this.o.behaviour.unknownMarket === 'silent')
      return this.send(peer, controlFrame('subscribed', { market, symbols }))
    const name = typeof market === 'string' ? market : JSON.stringify(market)
    this.send(
      peer,
      controlFrame('error', { code: 'INVALID_REQUEST', msg: `unknown market ${String(name)}` }),
    )
  }

  /**
   * An account-level error frame on every open socket (the account expired, the quota ran out
   * while connected): the socket stays open, as a service that only tells would leave it.
   */
  accountFrame(code: string, msg: string): void {
    for (const peer of this.peers) this.send(peer, controlFrame('error', { code, msg }))
  }

  private error(peer: Peer, fields: Record<string, unknown>): void {
    this.send(peer, controlFrame('error', fields))
  }

  /** Every `market:SYMBOL` some socket is subscribed to now. */
  subscribedKeys(): Set<string> {
    const out = new Set<string>()
    for (const peer of this.peers) for (const key of peer.subs.keys()) out.add(key)
    return out
  }

  private subscribe(peer: Peer, market: SimMarket, wanted: string[]): void {
    const named = nameOf(this.o.behaviour.marketNames, market)
    const denied = scopeDenial(peer.key, scopeOf(market))
    if (denied) {
      return this.error(peer, {
        code: denied.code,
        message: denied.message,
        market: named,
        symbols: wanted,
      })
    }
    const unknown = wanted.filter((s) => !findInstrument(market, s))
    if (unknown.length > 0) {
      this.error(peer, {
        code: 'UNKNOWN_SYMBOL',
        message: 'unknown symbol',
        market: named,
        symbols: unknown,
      })
    }
    const known = wanted.filter((s) => !unknown.includes(s))
    const fresh = known.filter((s) => !peer.subs.has(`${market}:${s}`))
    const cap = this.o.wsSymbolsOverride?.[peer.key.plan] ?? SIM_PLANS[peer.key.plan].wsSymbols
    const used = [...this.peers]
      .filter((p) => p.key.key === peer.key.key)
      .reduce((n, p) => n + p.subs.size, 0)
    const room = Math.max(0, cap - used)
    const accepted = fresh.slice(0, room)
    const overflow = fresh.slice(room)
    if (overflow.length > 0) {
      // The spec lists only WS_CONN_LIMIT for stream caps. 'listed': the message says it is the
      // symbol cap and names the refused symbols; 'unlisted': the code and a bare message only.
      this.error(
        peer,
        this.o.behaviour.symbolCapError === 'listed'
          ? {
              code: 'WS_CONN_LIMIT',
              message: `symbol cap of ${cap} per key reached`,
              market: named,
              symbols: overflow,
            }
          : { code: 'WS_CONN_LIMIT', message: 'limit reached' },
      )
    }
    const added: Instrument[] = []
    for (const s of accepted) {
      const inst = findInstrument(market, s) as Instrument
      peer.subs.set(`${market}:${s}`, inst)
      added.push(inst)
    }
    this.o.stats.subscribed(added.length)
    const acked = known.filter((s) => peer.subs.has(`${market}:${s}`))
    if (acked.length > 0)
      this.send(peer, controlFrame('subscribed', { market: named, symbols: acked }))
    // A full snapshot right after subscribing, so a client never waits a tick for its first price.
    const now = this.o.clock.now()
    const first = added.map((inst) => this.source.snapshot(inst, now))
    for (const frame of tickFrames(this.o.dialect, first)) this.send(peer, frame)
  }

  private unsubscribe(peer: Peer, market: SimMarket, symbols: string[]): void {
    const named = nameOf(this.o.behaviour.marketNames, market)
    // Acknowledged either way; a service that ignores it keeps the subscriptions (and pushes).
    if (this.o.behaviour.ignoresUnsubscribe)
      return this.send(peer, controlFrame('unsubscribed', { market: named, symbols }))
    let removed = 0
    for (const s of symbols) if (peer.subs.delete(`${market}:${s}`)) removed++
    this.o.stats.subscribed(-removed)
    this.send(peer, controlFrame('unsubscribed', { market: named, symbols }))
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

  private tick(): void {
    if (this.o.faults.isSilent()) return
    const now = this.o.clock.now()
    // null: the symbol's market is shut and pushes nothing this beat.
    const pushes = new Map<string, TickPush | null>()
    for (const peer of this.peers) {
      for (const [key, inst] of peer.subs) {
        if (!pushes.has(key) && !this.o.faults.muted.has(key))
          pushes.set(key, this.source.tick(inst, now))
      }
    }
    for (const peer of this.peers) {
      const mine: TickPush[] = []
      for (const k of peer.subs.keys()) {
        const push = pushes.get(k)
        if (push) mine.push(push)
      }
      if (mine.length === 0) continue
      for (const frame of tickFrames(this.o.dialect, mine)) this.send(peer, frame)
    }
  }

  private candles(): void {
    if (this.o.faults.isSilent()) return
    for (const peer of this.peers) {
      const candles = this.source.candles(peer.subs.values(), this.o.clock.now())
      for (const frame of candleFrames(this.o.dialect, candles)) this.send(peer, frame)
    }
  }

  private heartbeat(): void {
    if (this.o.faults.isSilent()) return
    for (const peer of this.peers) {
      if (!peer.alive) {
        peer.ws.terminate()
        continue
      }
      peer.alive = false
      if (this.o.dialect.heartbeat === 'ws-ping') peer.ws.ping()
      else this.send(peer, controlFrame('ping', { ts: this.o.clock.now() }))
    }
  }

  /** Self-rescheduling timer (never setInterval for network work: STYLE, podman-desktop). */
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

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { systemClock, type Clock } from '../util/clock'
import { resolveBehaviour, type ServiceBehaviour } from './behaviour'
import { resolveDialect, type Dialect, type DialectName } from './dialects'
import { requestIdOf, sendData, sendDenial } from './envelope'
import { createFaultHooks, FaultState, type FaultHooks } from './faults'
import { Gate, injectedDenial, type Denial } from './gate'
import { KeyMeters } from './limits'
import { apiKeyFrom, DEMO_KEYS, lookupKey, type DemoKeys, type RpmOverride } from './plans-and-keys'
import type { SimPlan } from './plans'
import { findInstrument, type SimMarket } from './market/instruments'
import type { MarketHours } from './market/market-hours'
import { PriceBook } from './market/price-walk'
import { ROUTES, type Route } from './rest-routes'
import { StatsCounter, type SimStats } from './stats'
import { isOverLimit, STREAM_PATH, StreamHub } from './stream'
import { TradingDay } from './market/trading-day'
import { ServedPrices, type ServedPrice } from './served-prices'

/**
 * The simulator process: one HTTP server on 127.0.0.1 serving the REST routes and upgrading
 * the stream path. Server states: LISTENING <-> DOWN (faults.down/up keep the port) -> CLOSED.
 */

export interface SimOptions {
  port?: number
  seed?: number
  dialect?: DialectName | Dialect
  tickIntervalMs?: number
  heartbeatMs?: number
  rpmOverride?: RpmOverride
  /** Drives the RPM window, trading day, stream timers and slow(); default systemClock. */
  clock?: Clock
  /** How often candle pushes are sent; default 60_000 (once per minute). */
  candleEveryMs?: number
  /** The stream's symbol cap per plan instead of the spec's approximate one (spec: Limits). */
  wsSymbolsOverride?: Partial<Record<SimPlan, number>>
  /** Readings of the spec where it is silent (behaviour.ts); default: DEFAULT_BEHAVIOUR. */
  behaviour?: Partial<ServiceBehaviour>
  /** When each market trades (market-hours.ts); default: around the clock. */
  hours?: MarketHours
  /** A key's own RPM below its plan's ("Per-key RPM values: not shown", spec: Limits). */
  keyRpm?: Readonly<Record<string, number>>
  /**
   * Keep the record of what was served (served-prices.ts) that tests hold shown prices against;
   * default true. Off for demo mode and the soak: at a push every 5 ms the record held up to
   * 20,000 prices a symbol, tens of MB that are the simulator's, not the client's.
   */
  recordServed?: boolean
}

/**
 * The service's trading day, on demand: the daily quota and the quotes' previous close and day
 * range roll over when it ends (UTC midnight until moved), while every timestamp stays real.
 */
export interface SimDay {
  /**
   * The current day ends `ms` from now (at most a day): the quota's Retry-After counts down to
   * that moment, as a real service's counts down to its midnight.
   */
  endsIn(ms: number): void
  /** The next day begins now: endsIn(0). */
  roll(): void
  /** ms until the next day begins. */
  msLeft(): number
  /**
   * Today's daily quota of `key` is used up, as if another tool on the same key had spent it:
   * every metered request (REST call, stream handshake) gets 429 DAILY_LIMIT_EXCEEDED until the
   * day ends. Open sockets keep streaming (pushes are not metered, spec: Limits).
   */
  spendQuota(key: string): void
}

export interface SimServer {
  readonly url: string
  readonly streamUrl: string
  readonly port: number
  readonly keys: DemoKeys
  readonly faults: FaultHooks
  readonly day: SimDay
  /**
   * Holds a symbol's price at `last` (null: let it walk again), so a test crosses an alert level
   * at a moment it chooses. REST quotes and stream ticks both carry it.
   */
  pinPrice(market: string, symbol: string, last: number | null): void
  stats(): SimStats
  resetStats(): void
  /**
   * When a REST quote answer last carried each `market:SYMBOL` (the live map, not a copy), so a
   * benchmark can tell from outside how fresh polled symbols are.
   */
  servedAt(): ReadonlyMap<string, number>
  /**
   * What was served for `market:SYMBOL` from `from` to `to` (REST rows and pushes, with their
   * figures; served-prices.ts): a test holds a shown price against it.
   */
  served(key: string, from: number, to: number): ServedPrice[]
  /** When `last` was last served for `market:SYMBOL` at or before `at`; null: it never was. */
  lastServedAt(key: string, last: number, at: number): number | null
  /** Symbols acked under market names the service does not know, over every socket. */
  ghostSubscriptions(): number
  /** The `market:SYMBOL`s some socket is subscribed to now. */
  streamedKeys(): Set<string>
  close(): Promise<void>
}

/** The simulator's parts, made once per start (startSimulator wires them to the server). */
interface SimParts {
  clock: Clock
  seed: number
  behaviour: ServiceBehaviour
  dialect: Dialect
  days: TradingDay
  book: PriceBook
  stats: StatsCounter
  faults: FaultState
  meters: KeyMeters
  gate: Gate
  hub: StreamHub
  servedAt: Map<string, number>
  served: ServedPrices
}

function makeParts(options: SimOptions): SimParts {
  const clock = options.clock ?? systemClock
  const seed = options.seed ?? 1
  const behaviour = resolveBehaviour(options.behaviour)
  const dialect = dialectOf(options.dialect, behaviour)
  const days = new TradingDay()
  const book = new PriceBook(seed, days, options.hours)
  const stats = new StatsCounter()
  const faults = new FaultState(clock)
  const meters = new KeyMeters(options.rpmOverride, days, options.keyRpm)
  const gate = new Gate(meters, faults, clock, behaviour)
  const served = new ServedPrices(options.recordServed ?? true)
  const hub = new StreamHub({
    ...{ book, dialect, behaviour, wsSymbolsOverride: options.wsSymbolsOverride, clock },
    ...{ gate, faults, stats, served, seed, requestId: requestIdOf },
    tickIntervalMs: options.tickIntervalMs ?? 250,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    candleEveryMs: options.candleEveryMs ?? 60_000,
  })
  const servedAt = new Map<string, number>()
  return {
    clock,
    seed,
    behaviour,
    dialect,
    days,
    book,
    stats,
    faults,
    meters,
    gate,
    hub,
    servedAt,
    served,
  }
}

/**
 * The dialect with the behaviour's push readings: a service with its own market words pushes
 * them too (market-names.ts), and `push` switches the rest (push layouts, numbers, times,
 * spellings, envelopes).
 */
function dialectOf(d: SimOptions['dialect'], behaviour: ServiceBehaviour): Dialect {
  const base = resolveDialect(d)
  const words = behaviour.marketNames === 'service' ? { pushMarkets: 'service' as const } : {}
  return { ...base, ...words, ...behaviour.push }
}

/** One REST request: route, method, metering and faults, then the route's answer or denial. */
async function handleRest(p: SimParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = requestIdOf(req)
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const route = ROUTES[url.pathname]
  if (!route) {
    const upgrade = url.pathname === STREAM_PATH
    sendDenial(res, requestId, {
      status: upgrade ? 426 : 404,
      code: upgrade ? 'INVALID_REQUEST' : 'NOT_FOUND',
      message: upgrade ? 'WebSocket upgrade required' : `no route for ${url.pathname}`,
    })
    return
  }
  if (req.method !== 'GET') {
    sendDenial(res, requestId, { status: 405, code: 'INVALID_REQUEST', message: 'GET only' })
    return
  }
  const key = apiKeyFrom(req.headers, null)
  p.stats.request('rest', key)
  p.stats.asked(url.pathname, url.searchParams)
  const wait = p.faults.takeDelay()
  if (wait > 0) await new Promise<void>((resolve) => p.clock.setTimeout(resolve, wait))
  const denial =
    admitted(p, url.pathname, key, route.scope) ?? answer(p, url, route, res, requestId)
  if (denial === null) return
  p.stats.status(denial.status, key, isOverLimit(denial))
  sendDenial(res, requestId, denial)
}

/** An injected fault or the gate's refusal; null when the request may be answered. */
function admitted(
  p: SimParts,
  path: string,
  key: string | null,
  scope: Route['scope'],
): Denial | null {
  const injected = p.faults.takeFailure(path, false)
  if (injected) return injectedDenial(injected)
  const admission = p.gate.admit(key, scope)
  return admission.ok ? null : admission.denial
}

/** The route's answer, sent; its refusal returned (null once sent). */
function answer(
  p: SimParts,
  url: URL,
  route: Route,
  res: ServerResponse,
  requestId: string,
): Denial | null {
  const now = p.clock.now()
  const result = route.handle(url.searchParams, {
    ...{ book: p.book, dialect: p.dialect, behaviour: p.behaviour, seed: p.seed, now },
    gaps: p.faults,
    served: (inst, row) => {
      const key = `${inst.market}:${inst.symbol}`
      p.servedAt.set(key, now)
      p.served.record(key, { at: now, via: 'rest', ...servedRow(row) })
    },
  })
  if (result.ok) {
    sendData(res, requestId, result.data)
    return null
  }
  return { status: result.status, code: result.code, message: result.message }
}

/** A REST row's price figures, as served. */
function servedRow(row: Record<string, unknown>): { last?: number; bid?: number; ask?: number } {
  const out: { last?: number; bid?: number; ask?: number } = {}
  if (typeof row.last === 'number') out.last = row.last
  if (typeof row.bid === 'number') out.bid = row.bid
  if (typeof row.ask === 'number') out.ask = row.ask
  return out
}

/** The server on 127.0.0.1: REST requests and stream upgrades; `listen` and `stop` keep the port. */
function httpServer(p: SimParts): {
  listen(port: number): Promise<void>
  stop(): Promise<void>
  server: ReturnType<typeof createServer>
} {
  const server = createServer((req, res) => {
    handleRest(p, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined)
    p.hub.handleUpgrade(req, socket, head)
  })
  const listen = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      p.hub.dropAll()
      if (!server.listening) return resolve()
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { listen, stop, server }
}

/** The trading day on demand (SimDay). */
function simDay(p: SimParts): SimDay {
  const { clock, days, meters } = p
  return {
    endsIn: (ms) => days.endsIn(clock.now(), ms),
    roll: () => days.endsIn(clock.now(), 0),
    msLeft: () => days.msLeft(clock.now()),
    spendQuota: (key) => {
      const record = lookupKey(key)
      if (!record) throw new Error(`the simulator has no key ${key}`)
      meters.spendQuota(record, clock.now())
    },
  }
}

export async function startSimulator(options: SimOptions = {}): Promise<SimServer> {
  const p = makeParts(options)
  const http = httpServer(p)
  await http.listen(options.port ?? 0)
  const port = (http.server.address() as AddressInfo).port
  const hub = p.hub
  const faults = createFaultHooks(p.faults, {
    dropSockets: () => hub.dropAll(),
    forgetSockets: () => hub.forgetAll(),
    malformed: (count) => hub.malformedNext(count),
    closeSocketsOf: (key) => hub.closeKey(key),
    down: http.stop,
    up: () => (http.server.listening ? Promise.resolve() : http.listen(port)),
    resetSockets: () => hub.clearMalformed(),
    accountFrame: (code, msg) => hub.accountFrame(code, msg),
  })
  return {
    url: `http://127.0.0.1:${port}`,
    streamUrl: `ws://127.0.0.1:${port}${STREAM_PATH}`,
    port,
    keys: DEMO_KEYS,
    faults,
    day: simDay(p),
    pinPrice: (market, symbol, last) => {
      const inst = findInstrument(market as SimMarket, symbol)
      if (!inst) throw new Error(`the simulator has no ${market}:${symbol}`)
      p.book.pin(inst, last)
    },
    stats: () => p.stats.snapshot(),
    resetStats: () => p.stats.reset(),
    servedAt: () => p.servedAt,
    served: (key, from, to) => p.served.between(key, from, to),
    lastServedAt: (key, last, at) => p.served.lastServedAt(key, last, at),
    ghostSubscriptions: () => hub.ghostSubscriptions(),
    streamedKeys: () => hub.subscribedKeys(),
    close: async () => {
      hub.close()
      await http.stop()
    },
  }
}

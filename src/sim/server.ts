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
import { ROUTES } from './rest-routes'
import { StatsCounter, type SimStats } from './stats'
import { STREAM_PATH, StreamHub } from './stream'
import { TradingDay } from './market/trading-day'

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
  /** The `market:SYMBOL`s some socket is subscribed to now. */
  streamedKeys(): Set<string>
  close(): Promise<void>
}

export async function startSimulator(options: SimOptions = {}): Promise<SimServer> {
  const clock = options.clock ?? systemClock
  const seed = options.seed ?? 1
  const behaviour = resolveBehaviour(options.behaviour)
  // A service with its own market words pushes them too (market-names.ts).
  const dialect: Dialect =
    behaviour.marketNames === 'service'
      ? { ...resolveDialect(options.dialect), pushMarkets: 'service' }
      : resolveDialect(options.dialect)
  const days = new TradingDay()
  const book = new PriceBook(seed, days, options.hours)
  const stats = new StatsCounter()
  const faults = new FaultState(clock)
  const meters = new KeyMeters(options.rpmOverride, days)
  const gate = new Gate(meters, faults, clock, behaviour)
  const hub = new StreamHub({
    book,
    dialect,
    behaviour,
    wsSymbolsOverride: options.wsSymbolsOverride,
    clock,
    gate,
    faults,
    stats,
    seed,
    tickIntervalMs: options.tickIntervalMs ?? 250,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    candleEveryMs: options.candleEveryMs ?? 60_000,
    requestId: requestIdOf,
  })

  const served = new Map<string, number>()
  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => clock.setTimeout(resolve, ms))

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    stats.request('rest', key)
    stats.asked(url.pathname, url.searchParams)
    const wait = faults.takeDelay()
    if (wait > 0) await delay(wait)
    const injected = faults.takeFailure(url.pathname, false)
    let denial: Denial | null = injected ? injectedDenial(injected) : null
    if (!denial) {
      const admission = gate.admit(key, route.scope)
      if (!admission.ok) denial = admission.denial
    }
    if (!denial) {
      const result = route.handle(url.searchParams, {
        book,
        dialect,
        behaviour,
        seed,
        now: clock.now(),
        served: (inst) => served.set(`${inst.market}:${inst.symbol}`, clock.now()),
      })
      if (result.ok) {
        sendData(res, requestId, result.data)
        return
      }
      denial = { status: result.status, code: result.code, message: result.message }
    }
    stats.status(denial.status, key)
    sendDenial(res, requestId, denial)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined)
    hub.handleUpgrade(req, socket, head)
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
      hub.dropAll()
      if (!server.listening) return resolve()
      server.close(() => resolve())
      server.closeAllConnections()
    })

  await listen(options.port ?? 0)
  const port = (server.address() as AddressInfo).port

  const hooks = createFaultHooks(faults, {
    dropSockets: () => hub.dropAll(),
    forgetSockets: () => hub.forgetAll(),
    malformed: (count) => hub.malformedNext(count),
    closeSocketsOf: (key) => hub.closeKey(key),
    down: stop,
    up: () => (server.listening ? Promise.resolve() : listen(port)),
    resetSockets: () => hub.clearMalformed(),
    accountFrame: (code, msg) => hub.accountFrame(code, msg),
  })

  return {
    url: `http://127.0.0.1:${port}`,
    streamUrl: `ws://127.0.0.1:${port}${STREAM_PATH}`,
    port,
    keys: DEMO_KEYS,
    faults: hooks,
    day: {
      endsIn: (ms) => days.endsIn(clock.now(), ms),
      roll: () => days.endsIn(clock.now(), 0),
      msLeft: () => days.msLeft(clock.now()),
      spendQuota: (key) => {
        const record = lookupKey(key)
        if (!record) throw new Error(`the simulator has no key ${key}`)
        meters.spendQuota(record, clock.now())
      },
    },
    pinPrice: (market, symbol, last) => {
      const inst = findInstrument(market as SimMarket, symbol)
      if (!inst) throw new Error(`the simulator has no ${market}:${symbol}`)
      book.pin(inst, last)
    },
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    servedAt: () => served,
    streamedKeys: () => hub.subscribedKeys(),
    close: async () => {
      hub.close()
      await stop()
    },
  }
}

import type WebSocket from 'ws'
import type { Market } from '../../shared/markets/market'
import type { AuthScheme } from '../rest/auth-header'
import type { Bar, Interval } from '../../shared/quote'
import type { StreamState } from '../../shared/status'
import type { Clock } from '../clock'
import type { TickdeskError } from '../errors'
import type { Logger } from '../log'
import type { FieldReading } from '../push/field-reading'
import type { QuoteUpdate } from '../quotes/quote-fields'
import type { Random } from '../random'

/** What the client needs from the RateGovernor; it satisfies this structurally. */
export interface HandshakeBudget {
  delayFor(kind: 'handshake'): number
  tryAcquire(kind: 'handshake'): boolean
  report(outcome: { ok: true } | { ok: false; error: TickdeskError }): void
}

export interface StreamClientOptions {
  url: string
  apiKey: string
  /** How the key is sent on the upgrade (auth-header.ts); default X-API-Key. */
  auth?: AuthScheme
  budget: HandshakeBudget
  clock: Clock
  random: Random
  logger?: Logger
  /** Ping period; the interface leaves heartbeat rules open (spec: Events). */
  heartbeatMs?: number
  /** Nothing received (data, pong, ping) for this long means the link is dead. */
  silenceTimeoutMs?: number
  connectTimeoutMs?: number
  /** After checkHealth(), how long a pong may take before the socket is replaced. */
  healthTimeoutMs?: number
  WebSocketImpl?: typeof WebSocket
  /** The word a subscribe names the market by (stream-market-names.ts); default: ours. */
  marketName?: (market: Market) => string
  /** The field reading each market's pushes are read under (core/trust); default: ours. */
  readingOf?: (market: Market) => FieldReading
}

/** What a StreamClient tells its listeners (the engine). Public types live here, the socket in stream-client.ts. */
export interface StreamCandle {
  market: Market
  symbol: string
  /** Normalised; null when the push named no interval we know. */
  interval: Interval | null
  bar: Bar
}
export interface StreamSymbolError {
  market: Market | null
  symbols: string[]
  code: string
  message: string
}
/** The per-key symbol cap reached; `symbols` are the refused ones when the service listed them. */
export interface StreamSymbolCap {
  market: Market | null
  symbols: string[]
  message: string
}
export interface StreamStats {
  connects: number
  reconnects: number
  malformed: number
  framesIn: number
  ticksIn: number
  /** Pushes for a symbol two wanted markets share that named neither market: dropped. */
  ambiguous: number
  /** Pushes in another spelling of a wanted symbol ("BTC-USDT"), read as it. */
  respelled: number
  /** Pushes for symbols nobody asked for under any spelling. */
  unmatched: number
  /** Whether the client sends keep-alives of its own (stream-keepalive.ts). */
  keepAlive: boolean
}
export interface StreamEvents {
  tick: QuoteUpdate
  candle: StreamCandle
  state: StreamState
  /**
   * The engine fetches a REST snapshot when `reconnect` is true (pushes were missed), not after a
   * resync (a new socket for the same set, no gap worth a call).
   */
  open: { reconnect: boolean; resync: boolean }
  symbolError: StreamSymbolError
  symbolCap: StreamSymbolCap
  /** A subscribe for this market went out (under StreamClientOptions.marketName). */
  subscribeSent: { market: Market }
  /** The service acknowledged a subscribe; market null when neither its tag nor symbols say. */
  subscribed: { market: Market | null }
  /** An error frame about a market, naming no symbols (e.g. "unknown market fx"). */
  marketRefused: { code: string; message: string }
  /** A push named the market in a word of the service's own (a candidate stream name). */
  serviceTag: { market: Market; tag: string }
  /** A push for a symbol two wanted markets share named neither (once per symbol and socket plan). */
  ambiguous: { symbol: string }
  /** WS_CONN_LIMIT, UNAUTHORIZED, NETWORK, TIMEOUT, the service's 403/429 codes … */
  error: TickdeskError
}

type Listeners = { [K in keyof StreamEvents]: Set<(value: StreamEvents[K]) => void> }

/** Typed listeners; a listener that throws is logged and cannot break the socket handling. */
export class StreamEmitter {
  private readonly listeners: Listeners = {
    tick: new Set(),
    candle: new Set(),
    state: new Set(),
    open: new Set(),
    symbolError: new Set(),
    symbolCap: new Set(),
    subscribeSent: new Set(),
    subscribed: new Set(),
    marketRefused: new Set(),
    serviceTag: new Set(),
    ambiguous: new Set(),
    error: new Set(),
  }

  constructor(private readonly log: Logger) {}

  on<K extends keyof StreamEvents>(event: K, cb: (value: StreamEvents[K]) => void): () => void {
    const set = this.listeners[event]
    set.add(cb)
    return () => {
      set.delete(cb)
    }
  }

  emit<K extends keyof StreamEvents>(event: K, value: StreamEvents[K]): void {
    // A tick's set by name: `listeners[event]` sees every event's name, so its look-up is V8's
    // megamorphic one (bench/ingest, perf: ~2 % of the core path), while this load has one shape.
    const listeners = event === 'tick' ? this.listeners.tick : this.listeners[event]
    for (const cb of listeners as Set<(value: StreamEvents[K]) => void>) {
      try {
        cb(value)
      } catch (e) {
        this.log.log('error', `stream: ${event} listener threw`, { error: String(e) })
      }
    }
  }
}

import type WebSocket from 'ws'
import type { RawData } from 'ws'
import type { Market } from '../../shared/markets/market'
import type { TickdeskError } from '../errors'
import type { Logger } from '../log'
import {
  FrameBuffer,
  frameBytes,
  frameText,
  parseFrame,
  type ParsedFrame,
} from '../push/push-parser'
import { PushScanner } from '../push/push-scan'
import { StreamUpdate } from '../quotes/quote-fields'
import type { StreamCaps } from './stream-caps'
import { classifyErrorFrame } from './stream-error-frame'
import type { StreamEvents } from './stream-events'
import type { ResyncSchedule } from './stream-resync'
import type { SubscriptionBook } from './subscription-book'

export interface InboundDeps {
  book: SubscriptionBook
  caps: StreamCaps
  resync: ResyncSchedule
  log: Logger
  emit<K extends keyof StreamEvents>(event: K, value: StreamEvents[K]): void
  /** Whether this socket is still the client's current one. */
  isCurrent(ws: WebSocket): boolean
  /** An error frame about the key or the account (stream-client acts as REST would). */
  accountRefused(error: TickdeskError): void
}

/**
 * What arrives on an open socket, frame by frame: ticks and candles of wanted symbols go to the
 * listeners; a push for a symbol this socket left feeds the resync check (stream-resync.ts); pings
 * are answered in the frame's own dialect; error frames are classified (stream-error-frame.ts)
 * and go to the caps (stream-caps.ts) or the listeners. Hot path (bench/ingest): one parse buffer
 * and one reused QuoteUpdate for every tick, no allocation per frame.
 */
export class InboundFrames {
  readonly counters = { malformed: 0, framesIn: 0, ticksIn: 0 }
  private readonly tickScratch = new StreamUpdate()
  private readonly frames = new FrameBuffer()
  private readonly scanner = new PushScanner()
  /** The market each service word was last told for (a parsed tick takes this path each time). */
  private readonly toldTags = new Map<string, Market>()

  constructor(private readonly deps: InboundDeps) {}

  read(ws: WebSocket, data: RawData, now: number): void {
    this.counters.framesIn++
    // The batch dialect is scanned in place, from the socket's bytes (push-scan.ts); anything
    // else is decoded and parsed as JSON.
    const frames = this.scanner.scan(frameBytes(data), now, this.frames)
      ? this.frames.frames
      : parseFrame(frameText(data), now, this.frames)
    for (let i = 0; i < frames.length; i++) this.onFrame(ws, frames[i] as ParsedFrame, now)
  }

  private onFrame(ws: WebSocket, f: ParsedFrame, now: number): void {
    const { book, emit } = this.deps
    switch (f.kind) {
      case 'tick': {
        // The symbol's handle remembers the route for this book as it stands: no look-up.
        const ref = f.ref
        let market: Market | null
        if (
          ref !== undefined &&
          ref.routeBook === book &&
          ref.routeEpoch === book.epoch &&
          ref.routeTag === f.market
        ) {
          market = ref.routed
        } else {
          market = book.route(f.market, f.symbol)
          // A word of the service's own for the symbol's market: a name to try for it (once per
          // symbol and plan here, off the hot path). Not when the symbol is wanted in two markets
          // (a coin and its perpetual): the word may be the other's.
          const tag = f.tag
          if (
            tag !== undefined &&
            market !== null &&
            this.toldTags.get(tag) !== market &&
            book.inOneMarket(f.symbol)
          ) {
            this.toldTags.set(tag, market)
            emit('serviceTag', { market, tag })
          }
          if (ref !== undefined) {
            ref.routeBook = book
            ref.routeEpoch = book.epoch
            ref.routeTag = f.market
            ref.routed = market
          }
        }
        if (market === null) return this.deps.resync.unwantedPush(book.leftAt(f.symbol), now)
        this.counters.ticksIn++
        // A scanned tick's figures stay packed (its `fields` would unpack them into an object).
        const packed = f.packed
        const fields = packed === undefined ? f.fields : null
        emit('tick', this.tickScratch.refill(market, f.symbol, fields, packed, f.ts, now, ref))
        return
      }
      case 'candle': {
        const market = book.route(f.market, f.symbol)
        if (market !== null)
          emit('candle', { market, symbol: f.symbol, interval: f.interval, bar: f.bar })
        return
      }
      case 'ping':
        if (f.reply !== null) ws.send(f.reply)
        return
      case 'malformed':
        this.counters.malformed++
        return
      case 'error':
        return this.onErrorFrame(ws, f)
      case 'subscribed': {
        const first = f.symbols[0]
        const market = f.market ?? (first === undefined ? null : book.marketOf(first))
        return emit('subscribed', { market })
      }
      default:
        return // pong, ignored: liveness is already recorded
    }
  }

  private onErrorFrame(
    ws: WebSocket,
    f: { code: string; message: string; symbols: string[] },
  ): void {
    const { book, caps, emit, log } = this.deps
    const stillOpen = (): boolean => this.deps.isCurrent(ws)
    const action = classifyErrorFrame(f)
    if (action.kind === 'account') {
      log.log('warn', 'stream: account error frame', { code: f.code })
      return this.deps.accountRefused(action.error)
    }
    if (action.kind === 'scope') {
      // The key's scope refuses what this socket asked (REST's 403 for those markets), or, with
      // nothing asked, the stream itself: the socket goes and waits as after a 403 upgrade.
      log.log('warn', 'stream: scope refused', { code: f.code })
      const asked = book.asked()
      if (asked.size === 0) return this.deps.accountRefused(action.error)
      for (const [market, symbols] of asked)
        emit('symbolError', { market, symbols, code: action.error.code, message: f.message })
      return
    }
    if (action.kind === 'market') {
      log.log('warn', 'stream: market refused', { code: f.code, message: f.message })
      return emit('marketRefused', { code: action.code, message: action.message })
    }
    if (action.kind !== 'symbols' && action.kind !== 'symbol-cap')
      return caps.onFrame(action, null, stillOpen)
    const first = action.symbols[0]
    const market = first === undefined ? null : book.marketOf(first)
    const { symbols, message } = action
    if (action.kind === 'symbols')
      return emit('symbolError', { market, symbols, code: action.code, message })
    log.log('warn', 'stream: symbol cap reached', { listed: action.symbols.length })
    caps.onFrame(action, market, stillOpen)
  }
}

import type WebSocket from 'ws'
import type { RawData } from 'ws'
import type { Market } from '../../shared/markets/market'
import { timetableFor } from '../../shared/markets/market-timetables'
import { fromWall } from '../../shared/markets/zoned-time'
import type { TickdeskError } from '../errors'
import type { Logger } from '../log'
import { DEFAULT_READING, type FieldReading } from '../push/field-reading'
import { FrameBuffer } from '../push/frame-buffer'
import { frameBytes, frameText } from '../push/frame-text'
import type { ParsedFrame } from '../push/parsed-frame'
import { parseFrame } from '../push/push-parser'
import { PushScanner } from '../push/push-scan'
import { StreamUpdate, type QuoteFields } from '../quotes/quote-fields'
import { PushRouter } from './push-router'
import type { StreamCaps } from './stream-caps'
import { classifyErrorFrame } from './stream-error-frame'
import type { StreamEvents } from './stream-events'
import type { ResyncSchedule } from './stream-resync'
import type { SubscriptionBook } from './subscription-book'

type TickFrame = Extract<ParsedFrame, { kind: 'tick' }>
type ItemFrame = Extract<ParsedFrame, { kind: 'item' }>
type CandleFrame = Extract<ParsedFrame, { kind: 'candle' }>

const NO_FIELDS: QuoteFields = Object.freeze({})

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
  /** The field reading a market's pushes are read under now (core/trust); default: ours. */
  readingOf?(market: Market): FieldReading
  /** An error frame asked for a keep-alive of the client's own (stream-keepalive.ts). */
  keepAliveAsked?(message: string): void
}

/**
 * What arrives on an open socket, frame by frame: ticks and candles of wanted symbols go to the
 * listeners, each tick's figures read under its market's field reading (the default one is what
 * the parser already read); a push for a symbol this socket left feeds the resync check
 * (stream-resync.ts); pings are answered in the frame's own dialect; error frames are classified
 * (stream-error-frame.ts) and go to the caps (stream-caps.ts) or the listeners. Which wanted
 * symbol a push is for, in whatever spelling or key it comes: push-router.ts. Hot path
 * (bench/ingest): one parse buffer and one reused QuoteUpdate for every tick, no allocation per
 * frame.
 */
export class InboundFrames {
  readonly counters = { malformed: 0, framesIn: 0, ticksIn: 0 }
  private readonly tickScratch = new StreamUpdate()
  private readonly frames = new FrameBuffer()
  private readonly scanner = new PushScanner()
  readonly router: PushRouter
  /** The market each service word was last told for (a parsed tick takes this path each time). */
  private readonly toldTags = new Map<string, Market>()

  constructor(private readonly deps: InboundDeps) {
    this.router = new PushRouter(deps.book, (symbol) => deps.emit('ambiguous', { symbol }))
  }

  read(ws: WebSocket, data: RawData, now: number): void {
    this.counters.framesIn++
    // Tick frames (a batch, or one tick) are scanned in place, from the socket's bytes
    // (push-scan.ts); anything else is decoded and parsed as JSON.
    const frames = this.scanner.scan(frameBytes(data), now, this.frames)
      ? this.frames.frames
      : parseFrame(frameText(data), now, this.frames, this.router.keys)
    for (let i = 0; i < frames.length; i++) this.onFrame(ws, frames[i] as ParsedFrame, now)
  }

  private onFrame(ws: WebSocket, f: ParsedFrame, now: number): void {
    switch (f.kind) {
      case 'tick':
        return this.tick(f, now)
      case 'item':
        return this.item(f, now)
      case 'candle':
        return this.candle(f)
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
        const market = f.market ?? (first === undefined ? null : this.deps.book.marketOf(first))
        return this.deps.emit('subscribed', { market })
      }
      default:
        return // pong, ignored: liveness is already recorded
    }
  }

  private tick(f: TickFrame, now: number): void {
    const market = this.router.tick(f)
    if (market === null) return this.deps.resync.unwantedPush(this.deps.book.leftAt(f.symbol), now)
    const symbol = this.router.symbol
    if (f.tag !== undefined) this.tellTag(f.tag, market, symbol)
    this.counters.ticksIn++
    const reading = this.deps.readingOf?.(market) ?? DEFAULT_READING
    // A scanned tick's figures stay packed (its `fields` would unpack them into an object).
    const packed = reading.isDefault ? f.packed : undefined
    const fields = !reading.isDefault
      ? (reading.pick(f.raw ?? f.fields) ?? NO_FIELDS)
      : packed === undefined
        ? f.fields
        : null
    const ts = f.local === true && f.ts !== null ? localTime(f.ts, market, symbol, now) : f.ts
    this.deps.emit(
      'tick',
      this.tickScratch.refill(market, symbol, fields, packed, ts, now, f.ref, f),
    )
  }

  /**
   * An item of no kind we know whose symbol is under a key of the service's own: found and
   * learned. One with no wanted symbol among its values is another kind of message (a status, a
   * banner), not an unreadable push: ignored, as any message of a kind we do not read.
   */
  private item(f: ItemFrame, now: number): void {
    const market = this.router.item(f)
    if (market === null) return
    const symbol = this.router.symbol
    if (f.tag !== undefined) this.tellTag(f.tag, market, symbol)
    this.counters.ticksIn++
    const reading = this.deps.readingOf?.(market) ?? DEFAULT_READING
    const fields = reading.pick(f.raw) ?? NO_FIELDS
    this.deps.emit(
      'tick',
      this.tickScratch.refill(market, symbol, fields, undefined, null, now, undefined, f),
    )
  }

  private candle(f: CandleFrame): void {
    const book = this.deps.book
    const market = book.route(f.market, f.symbol)
    const route = market !== null ? { market, symbol: f.symbol } : book.respell(f.market, f.symbol)
    if (route === null) return
    let bar = f.bar
    if (f.local === true) {
      const zone = timetableFor(route.market, route.symbol).timeZone
      bar = {
        ...bar,
        openTime: fromWall(bar.openTime, zone),
        closeTime: fromWall(bar.closeTime, zone),
      }
    }
    this.deps.emit('candle', {
      market: route.market,
      symbol: route.symbol,
      interval: f.interval,
      bar,
    })
  }

  /**
   * A word of the service's own for the symbol's market: a name to try for it (once per tag and
   * market). Not when the symbol is wanted in two markets (a coin and its perpetual): the word
   * may be the other's.
   */
  private tellTag(tag: string, market: Market, symbol: string): void {
    if (this.toldTags.get(tag) === market || !this.deps.book.inOneMarket(symbol)) return
    this.toldTags.set(tag, market)
    this.deps.emit('serviceTag', { market, tag })
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
    if (action.kind === 'keep-alive') {
      log.log('warn', 'stream: the service wants a keep-alive', { message: f.message })
      return this.deps.keepAliveAsked?.(f.message)
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

/** A wall-clock time without an offset, read in the market's zone, never ahead of receipt. */
function localTime(wall: number, market: Market, symbol: string, now: number): number {
  return Math.min(fromWall(wall, timetableFor(market, symbol).timeZone), now)
}

import { symbolKey, type Market, type SymbolKey } from '../../shared/markets/market'
import type { StreamState } from '../../shared/status'
import type { CandleBuilder } from '../bars/candle-builder'
import { MARKET_403 } from '../errors'
import type { FeedPlanApplier } from '../feed/feed-plan-applier'
import type { QuotePoller } from '../poll/quote-poller'
import type { QuoteStore } from '../quotes/quote-store'
import type { EngineStatus } from './engine-status'
import type { FeedPlanner } from '../feed/feed-planner'
import type { Logger } from '../log'
import { aliasMarketName } from '../stream/market-aliases'
import type { Clock } from '../clock'
import type { QuoteFields, QuoteUpdate } from '../quotes/quote-fields'
import type { QuoteIngest } from '../quotes/quote-ingest'
import { StreamClient } from '../stream/stream-client'
import type { StreamClientOptions } from '../stream/stream-events'
import { StreamMarketNames, type StreamNameMemory } from '../stream/stream-market-names'
import type { SymbolStatusBook } from '../quotes/symbol-statuses'
import type { StreamTrust } from '../trust/stream-trust'

/**
 * The engine's one socket, the names it calls markets by, and what each of its events does
 * (engine.ts wires everything else): a tick of a market whose stream is trusted goes into the
 * store and the planner, one of a market not trusted (yet) to the stream trust, held (core/trust);
 * the stream-market-names hooks (the word each subscribe names a market by, what was sent,
 * acked, refused and pushed); candles into the builder; the symbol cap and per-symbol refusals
 * into the planner and the statuses; a symbol two markets share pushed without a market tag
 * to the planner, which streams it in one market only.
 */
export interface EngineStreamSide {
  planner: FeedPlanner
  candles: CandleBuilder
  statuses: SymbolStatusBook
  streamNames: StreamMarketNames
  trust: () => StreamTrust
  logger: Logger
  quotes: QuoteStore
  /** Where a tick lands (its store entry carries the symbol's slot). */
  ingest: QuoteIngest
  feedStatus: EngineStatus
  feedPlan: () => FeedPlanApplier
  poller: () => QuotePoller
}

/**
 * What a stream tick touches (streamTick): bench/ingest drives the engine's own tick handler
 * through it, so the figure measures this code and not a copy of it.
 */
export type StreamTickSide = Pick<EngineStreamSide, 'trust' | 'ingest' | 'planner' | 'streamNames'>

/**
 * What each market is called on the stream, learned (stream-market-names.ts). A market's name
 * failed or worked: its symbols poll or stream at once (the planner's gates), a new name is
 * subscribed afresh (its old name's subscriptions unsubscribed first), and `changed` lets the
 * status line say it (feed-status.ts).
 */
export function createStreamNames(o: {
  clock: Clock
  overrides: Partial<Record<Market, string>> | undefined
  memory: StreamNameMemory | undefined
  planner: FeedPlanner
  /** The socket, made after the names it speaks (it asks them on each subscribe). */
  stream: () => StreamClient
  /** A market's name changed (renamed) or its gate did: the gates and the status follow. */
  changed: (market: Market, renamed: boolean) => void
}): StreamMarketNames {
  const { memory, planner } = o
  return new StreamMarketNames({
    clock: o.clock,
    ...(o.overrides ? { overrides: o.overrides } : {}),
    ...(memory ? { remembered: memory.remembered } : {}),
    onChange: (market, renamed) => {
      if (renamed) o.stream().renamed(market)
      o.changed(market, renamed)
    },
    ...(memory ? { onLearned: (m: Market, name: string) => memory.learned(m, name) } : {}),
    ...(memory?.settled ? { saved: () => memory.settled?.() ?? Promise.resolve() } : {}),
    unreadable: () => o.stream().stats().malformed,
    asked: (market) => {
      const plan = planner.plan()
      return plan.streamed.has(market) || plan.shadow.has(market)
    },
  })
}

export function createEngineStream(
  opts: Omit<StreamClientOptions, 'marketName' | 'readingOf'>,
  side: EngineStreamSide,
): StreamClient {
  const { planner, candles, statuses, streamNames, logger } = side
  const stream = new StreamClient({
    ...opts,
    marketName: (market) => {
      const name = streamNames.wire(market)
      aliasMarketName(name, market)
      return name
    },
    readingOf: (market) => side.trust().readingOf(market),
  })
  stream.on('tick', (u) => streamTick(u, side))
  stream.on('subscribeSent', ({ market }) => streamNames.sent(market))
  stream.on('subscribed', ({ market }) => market !== null && streamNames.acked(market))
  stream.on('marketRefused', ({ code, message }) => {
    if (!streamNames.refusedFrame(code, message))
      logger.log('warn', 'stream: market refusal matched no try', { code, message })
  })
  stream.on('serviceTag', ({ market, tag }) => {
    // A push routed to one market by its symbol alone names that market by this word: from now
    // on the word routes pushes (two markets sharing a symbol are told apart by it).
    aliasMarketName(tag, market)
    streamNames.serviceTag(market, tag)
  })
  stream.on('ambiguous', ({ symbol }) => {
    logger.log('warn', 'stream: pushes name no market for a symbol two markets share', { symbol })
    planner.separate(symbol)
  })
  stream.on('candle', (c) =>
    candles.merge(symbolKey(c.market, c.symbol), [c.bar], c.interval ?? undefined),
  )
  stream.on('state', (s) => onState(s, side))
  stream.on('open', ({ resync }) => {
    side.feedStatus.clear()
    // One REST snapshot of the streamed symbols (within budget): on a reconnect it fills what
    // the gap missed; on the first open it brings the fields pushes may never carry (day
    // high/low, prevClose) and the first REST price each market's stream is held against
    // (core/trust). A resync (same set, new socket) leaves no gap worth a call.
    const feedPlan = side.feedPlan()
    if (!resync) feedPlan.snapshot(feedPlan.streamedKeys())
    side.feedStatus.changed()
  })
  stream.on('symbolCap', (cap) => {
    // Over the symbol cap is not the symbol's fault: those poll, the rest keep streaming.
    const refused = keysOf(cap.symbols, cap.market, side)
    logger.log('warn', 'stream symbol cap', { refused: refused.length })
    planner.capRefused(refused)
  })
  stream.on('symbolError', (e) => {
    const keys = keysOf(e.symbols, e.market, side)
    if (!MARKET_403.has(e.code) || e.market === null)
      return statuses.refusedOnStream(keys, e.code, e.message)
    // Not in the key's scope: as REST's refusal of the code (its words, polling blocked), and
    // the slots go to symbols that can stream.
    statuses.refusedOnStream(keys, e.code, side.poller().refuseMarket(e.market, e.code))
    for (const k of keys) planner.demote(k)
  })
  stream.on('error', (e) => side.feedStatus.noteStreamError(e))
  return stream
}

/** The socket's state: only an open one streams; names on trial start again with the next. */
function onState(state: StreamState, side: EngineStreamSide): void {
  if (state !== 'open') side.streamNames.socketLost()
  side.planner.setStreamAvailable(state === 'open')
  if (state !== 'open') side.quotes.markStale(side.feedPlan().streamedKeys())
  side.feedStatus.changed()
}

/**
 * A tick: into the store when its market's stream is trusted, else held by the trust. The
 * merged quote's key, not symbolKey(): no string built and hashed per tick (bench/ingest). A
 * slot counts as fed (the planner's and the names' proof) by a push that carried the price:
 * one that moved only bid and ask does not keep a slot whose prices never come.
 */
export function streamTick(u: QuoteUpdate, side: StreamTickSide): void {
  const trust = side.trust()
  if (!trust.shows(u.market)) return held(u, side, trust)
  const packed = u.packed
  if (packed === undefined ? isEmpty(u.fields) : packed.mask === 0) return
  const { planner, streamNames } = side
  const entry = side.ingest.entry(u)
  const slot = entry.slot
  // Once the planner has seen a symbol's slot tick, it needs telling again only after it
  // dropped a slot (its epoch moved): no look-up per tick (quote-entry.ts).
  if (slot.plannerEpoch === planner.tickEpoch || entry.quote.receivedAt !== u.receivedAt) return
  streamNames.pushed(entry.quote.market)
  if (planner.noteTick(entry.quote.key)) slot.plannerEpoch = planner.tickEpoch
}

/** A push of a market not trusted (yet): held, and its name and slot proven by it arriving. */
function held(u: QuoteUpdate, side: StreamTickSide, trust: StreamTrust): void {
  trust.hold(u)
  side.streamNames.pushed(u.market)
  if (!isEmpty(u.fields)) side.planner.noteTick(symbolKey(u.market, u.symbol))
}

function isEmpty(fields: QuoteFields): boolean {
  for (const _ in fields) return false
  return true
}

/** A frame's symbols as keys: in its market, or (none named) the one each streams in. */
function keysOf(
  symbols: readonly string[],
  market: Market | null | undefined,
  side: EngineStreamSide,
): SymbolKey[] {
  const keys: SymbolKey[] = []
  for (const symbol of symbols) {
    const m = market ?? side.feedPlan().marketOfStreamed(symbol)
    if (m) keys.push(symbolKey(m, symbol))
  }
  return keys
}

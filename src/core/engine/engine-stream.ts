import { symbolKey, type Market, type SymbolKey } from '../../shared/markets/market'
import type { StreamState } from '../../shared/status'
import type { CandleBuilder } from '../bars/candle-builder'
import { MARKET_403, type TickdeskError } from '../errors'
import type { FeedPlanner } from '../feed/feed-planner'
import type { Logger } from '../log'
import { aliasMarketName } from '../stream/market-aliases'
import type { Clock } from '../clock'
import type { QuoteIngest } from '../quotes/quote-ingest'
import { StreamClient } from '../stream/stream-client'
import type { StreamClientOptions } from '../stream/stream-events'
import {
  StreamMarketNames,
  type MarketGate,
  type StreamNameMemory,
} from '../stream/stream-market-names'
import type { SymbolStatusBook } from '../quotes/symbol-statuses'

/**
 * The engine's one socket, the names it calls markets by, and what each of its events does
 * (engine.ts wires everything else): ticks into the store and the planner, the
 * stream-market-names hooks (the word each subscribe names a market by, what was sent, acked,
 * refused and pushed; a name failing or working gates the planner), candles into the builder,
 * the symbol cap and per-symbol refusals into the planner and the statuses. Apart from engine.ts
 * because it is one job, the stream's side of the engine; moved out of it as it was.
 */
export interface EngineStreamSide {
  planner: FeedPlanner
  candles: CandleBuilder
  statuses: SymbolStatusBook
  streamNames: StreamMarketNames
  logger: Logger
  /** Where a tick lands (its store entry carries the symbol's slot). */
  ingest: QuoteIngest
  /** The market a streamed symbol streams in, for frames that name no market. */
  marketOfStreamed(symbol: string): Market | null
  onState(state: StreamState): void
  onOpen(resync: boolean): void
  onError(error: TickdeskError): void
  /** A market the key's scope refuses on the stream: polled as REST's refusal would; its words. */
  refuseMarket(market: Market, code: string): string
}

/**
 * What each market is called on the stream, learned (stream-market-names.ts). A market's name
 * failed or worked: its symbols poll or stream at once (the planner's gates), a new name is
 * subscribed afresh, and `changed` lets the status line say it (feed-status.ts).
 */
export function createStreamNames(o: {
  clock: Clock
  overrides: Partial<Record<Market, string>> | undefined
  memory: StreamNameMemory | undefined
  planner: FeedPlanner
  /** The socket, made after the names it speaks (it asks them on each subscribe). */
  stream: () => StreamClient
  changed: () => void
}): StreamMarketNames {
  const { memory, planner } = o
  const names: StreamMarketNames = new StreamMarketNames({
    clock: o.clock,
    ...(o.overrides ? { overrides: o.overrides } : {}),
    ...(memory ? { remembered: memory.remembered } : {}),
    onChange: (market, renamed) => {
      if (renamed) o.stream().renamed(market)
      const gates = new Map<Market, MarketGate>()
      const unproven = new Set<Market>()
      for (const r of names.report()) {
        gates.set(r.market, names.gate(r.market))
        if (r.state !== 'streaming') unproven.add(r.market)
      }
      planner.setMarketGates(gates, unproven)
      o.changed()
    },
    ...(memory ? { onLearned: (m: Market, name: string) => memory.learned(m, name) } : {}),
    ...(memory?.settled ? { saved: () => memory.settled?.() ?? Promise.resolve() } : {}),
    unreadable: () => o.stream().stats().malformed,
    asked: (market) => planner.plan().streamed.has(market),
  })
  return names
}

export function createEngineStream(
  opts: Omit<StreamClientOptions, 'marketName'>,
  side: EngineStreamSide,
): StreamClient {
  const { planner, candles, statuses, streamNames, logger, ingest } = side
  const stream = new StreamClient({
    ...opts,
    marketName: (market) => {
      const name = streamNames.wire(market)
      aliasMarketName(name, market)
      return name
    },
  })
  // The merged quote's key, not symbolKey(): no string built and hashed per tick (bench/ingest).
  stream.on('tick', (u) => {
    const entry = ingest.entry(u)
    const slot = entry.slot
    // Once the planner has seen a symbol's slot tick, it needs telling again only after it
    // dropped a slot (its epoch moved): no look-up per tick (quote-entry.ts).
    if (slot.plannerEpoch === planner.tickEpoch) return
    streamNames.pushed(entry.quote.market)
    if (planner.noteTick(entry.quote.key)) slot.plannerEpoch = planner.tickEpoch
  })
  stream.on('subscribeSent', ({ market }) => streamNames.sent(market))
  stream.on('subscribed', ({ market }) => market !== null && streamNames.acked(market))
  stream.on('marketRefused', ({ code, message }) => {
    if (!streamNames.refusedFrame(code, message))
      logger.log('warn', 'stream: market refusal matched no try', { code, message })
  })
  stream.on('serviceTag', ({ market, tag }) => streamNames.serviceTag(market, tag))
  stream.on('candle', (c) =>
    candles.merge(symbolKey(c.market, c.symbol), [c.bar], c.interval ?? undefined),
  )
  stream.on('state', (s) => side.onState(s))
  stream.on('open', ({ resync }) => side.onOpen(resync))
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
    statuses.refusedOnStream(keys, e.code, side.refuseMarket(e.market, e.code))
    for (const k of keys) planner.demote(k)
  })
  stream.on('error', (e) => side.onError(e))
  return stream
}

/** A frame's symbols as keys: in its market, or (none named) the one each streams in. */
function keysOf(
  symbols: readonly string[],
  market: Market | null | undefined,
  side: EngineStreamSide,
): SymbolKey[] {
  const keys: SymbolKey[] = []
  for (const symbol of symbols) {
    const m = market ?? side.marketOfStreamed(symbol)
    if (m) keys.push(symbolKey(m, symbol))
  }
  return keys
}

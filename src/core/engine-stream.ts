import { symbolKey, type Market, type SymbolKey } from '../shared/market'
import type { StreamState } from '../shared/status'
import type { CandleBuilder } from './candle-builder'
import type { TickdeskError } from './errors'
import type { FeedPlanner } from './feed-planner'
import type { Logger } from './log'
import type { QuoteUpdate } from './quote-fields'
import type { QuoteEntry } from './quote-store'
import { StreamClient } from './stream-client'
import type { StreamClientOptions } from './stream-events'
import type { SymbolStatusBook } from './symbol-statuses'

/**
 * The engine's one socket and what each of its events does to the engine (engine.ts wires the
 * rest): ticks into the store and the planner, candles into the builder, the symbol cap and
 * per-symbol refusals into the planner and the statuses. Moved out of engine.ts as it was.
 */
export interface EngineStreamSide {
  planner: FeedPlanner
  candles: CandleBuilder
  statuses: SymbolStatusBook
  logger: Logger
  /** The merged quote's store entry (it carries the symbol's slot). */
  ingestEntry(update: QuoteUpdate): QuoteEntry
  onState(state: StreamState): void
  onOpen(resync: boolean): void
  onError(error: TickdeskError): void
}

export function createEngineStream(
  opts: StreamClientOptions,
  side: EngineStreamSide,
): StreamClient {
  const { planner, candles, statuses, logger } = side
  const stream = new StreamClient(opts)
  // The merged quote's key, not symbolKey(): no string built and hashed per tick (bench/ingest).
  stream.on('tick', (u) => {
    const entry = side.ingestEntry(u)
    const slot = entry.slot
    // Once the planner has seen a symbol's slot tick, it needs telling again only after it
    // dropped a slot (its epoch moved): no look-up per tick (symbol-slot.ts).
    if (slot.plannerEpoch === planner.tickEpoch) return
    if (planner.noteTick(entry.quote.key)) slot.plannerEpoch = planner.tickEpoch
  })
  stream.on('candle', (c) =>
    candles.merge(symbolKey(c.market, c.symbol), [c.bar], c.interval ?? undefined),
  )
  stream.on('state', (s) => side.onState(s))
  stream.on('open', ({ resync }) => side.onOpen(resync))
  stream.on('symbolCap', (cap) => {
    // Over the symbol cap is not the symbol's fault: those poll, the rest keep streaming.
    const refused = keysOf(cap.symbols, cap.market, planner)
    logger.log('warn', 'stream symbol cap', { refused: refused.length })
    planner.capRefused(refused)
  })
  stream.on('symbolError', (e) => {
    statuses.refusedOnStream(keysOf(e.symbols, e.market, planner), e.code, e.message)
  })
  stream.on('error', (e) => side.onError(e))
  return stream
}

/** A frame's symbols as keys: in its market, or (none named) the one each streams in. */
function keysOf(
  symbols: readonly string[],
  market: Market | null | undefined,
  planner: FeedPlanner,
): SymbolKey[] {
  const keys: SymbolKey[] = []
  for (const symbol of symbols) {
    const m = market ?? planner.marketOfStreamed(symbol)
    if (m) keys.push(symbolKey(m, symbol))
  }
  return keys
}

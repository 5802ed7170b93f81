import { symbolKey, type Market } from '../../shared/markets/market'
import type { SymbolStatus } from '../../shared/quote'
import type { Clock } from '../clock'
import type { TickdeskError } from '../errors'
import { QuotePoller } from '../poll/quote-poller'
import type { QuoteUpdate } from '../quotes/quote-fields'
import type { QuoteIngest } from '../quotes/quote-ingest'
import type { QuoteStore } from '../quotes/quote-store'
import type { RateGovernor } from '../rest/rate-governor'
import type { RestClient } from '../rest/rest-client'
import type { StreamTrust } from '../trust/stream-trust'
import type { FeedPlanApplier } from '../feed/feed-plan-applier'
import type { FeedPlanner } from '../feed/feed-planner'
import type { Logger } from '../log'
import type { StreamClient } from '../stream/stream-client'
import type { StreamMarketNames } from '../stream/stream-market-names'
import { SilentSymbolCheck } from './silent-symbol-check'

/**
 * The engine's poller and the REST checks it makes for the stream. Its answers: each REST quote
 * is first held against the stream's price of the same symbol (core/trust: the snapshot, a
 * sample, a probe symbol's poll), then merged into the store, then given to the silent-symbol
 * check waiting for it.
 */
export function createEnginePoller(o: {
  client: RestClient
  governor: RateGovernor
  clock: Clock
  quotes: QuoteStore
  ingest: QuoteIngest
  trust: () => StreamTrust
  silentCheck: () => SilentSymbolCheck
  onSymbolStatus(s: SymbolStatus): void
  onError(e: TickdeskError): void
  /** The service answered a call: a transport failure no longer holds. */
  onAnswered(): void
  onServiceTag(market: Market, tag: string): void
}): QuotePoller {
  const answer = (u: QuoteUpdate): void => {
    const key = symbolKey(u.market, u.symbol)
    const entry = o.quotes.entry(key)
    const shown =
      entry === undefined
        ? undefined
        : { quote: entry.quote, streamMovedAt: entry.slot.streamMovedAt }
    o.trust().restAnswer(u, shown)
    const q = o.ingest.quote(u)
    o.silentCheck().answered(q.key, q.last)
  }
  return new QuotePoller({
    client: o.client,
    governor: o.governor,
    clock: o.clock,
    onUpdates: (updates) => {
      for (const u of updates) answer(u)
    },
    onSymbolStatus: (s) => o.onSymbolStatus(s),
    onError: (e) => o.onError(e),
    onAnswered: () => o.onAnswered(),
    onServiceTag: (market, tag) => o.onServiceTag(market, tag),
  })
}

/**
 * No silent symbol (silent-symbol-check.ts): only markets whose name is proven and whose prices
 * are trusted (the others are stream-market-names' and the trust's), and only symbols the
 * stream fed since their slot (one never fed is the planner's). The other markets' streamed
 * symbols are on trial: kept fresh by REST while their name or prices are tried.
 */
export function createSilentCheck(o: {
  clock: Clock
  logger: Logger
  quotes: QuoteStore
  planner: FeedPlanner
  stream: StreamClient
  streamNames: StreamMarketNames
  trust: StreamTrust
  feedPlan: FeedPlanApplier
  poller: QuotePoller
}): SilentSymbolCheck {
  const proven = (m: Market): boolean => o.streamNames.streaming(m) && o.trust.shows(m)
  const onTrial = (m: Market): boolean => !proven(m)
  return new SilentSymbolCheck({
    clock: o.clock,
    streamed: () =>
      o.stream.state() === 'open'
        ? o.feedPlan.streamedKeys(proven).filter((key) => o.planner.fedSinceSlot(key))
        : [],
    onTrial: () => (o.stream.state() === 'open' ? o.feedPlan.streamedKeys(onTrial) : []),
    lastOf: (key) => o.quotes.get(key),
    check: (keys) => o.poller.pollNow(keys),
    missed: (key) => {
      o.logger.log('warn', 'stream: a streamed symbol missed a move REST saw', { key })
      o.planner.demote(key)
    },
    socket: () => o.stream.stats(),
  })
}

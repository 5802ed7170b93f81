import type { Market } from '../../shared/markets/market'
import type { Clock } from '../clock'
import type { FeedPlanner } from '../feed/feed-planner'
import type { Logger } from '../log'
import type { QuotePoller } from '../poll/quote-poller'
import type { QuoteIngest } from '../quotes/quote-ingest'
import type { MarketGate, StreamMarketNames, StreamNameMemory } from '../stream/stream-market-names'
import { sampleEveryMs } from '../trust/sample-pace'
import { StreamTrust } from '../trust/stream-trust'

/**
 * The engine's stream trust (core/trust): its samples asked through the poller (riding poll
 * calls), its verdicts into the planner's gates beside the market names' (gateMarkets), a market
 * it trusts anew shows the newest held pushes at once, and a reading it learned is remembered.
 */
export function createStreamTrust(o: {
  clock: Clock
  logger: Logger
  memory: StreamNameMemory | undefined
  planner: FeedPlanner
  poller: () => QuotePoller
  /** The key's RPM (the plan's, or lower: the governor's learned one). */
  rpm: () => number
  ingest: QuoteIngest
  /** The market's trust changed: the gates and the status follow. */
  changed(market: Market): void
}): StreamTrust {
  const { memory, planner } = o
  return new StreamTrust({
    clock: o.clock,
    ...(memory?.readings ? { remembered: memory.readings } : {}),
    onChange: (market) => {
      o.logger.log('info', 'stream trust', { market })
      o.changed(market)
    },
    onLearned: (market, keys) => memory?.readingLearned?.(market, keys),
    onTrusted: (market, held) => {
      for (const h of held) {
        if (Object.keys(h.fields).length === 0) continue
        o.ingest.quote({
          market,
          symbol: h.symbol,
          fields: h.fields,
          ts: null,
          source: 'stream',
          receivedAt: h.at,
        })
      }
    },
    sample: (keys, urgent) => o.poller().sample(keys, urgent),
    streamed: (market) => planner.streamedIn(market),
    streams: (market, symbol) => planner.streams(market, symbol),
    sampleEveryMs: () => sampleEveryMs(o.rpm(), planner.plan().streamed.size),
  })
}

const STRICTNESS: Readonly<Record<MarketGate, number>> = { open: 0, probe: 1, closed: 2 }

/**
 * Each market's gate for the planner: the stricter of what its stream name allows
 * (stream-market-names.ts) and what its prices' trust allows (core/trust); markets whose name no
 * push has proven yet hold no slots against others.
 */
export function gateMarkets(
  planner: FeedPlanner,
  names: StreamMarketNames,
  trust: StreamTrust | null,
): void {
  const gates = new Map<Market, MarketGate>()
  const unproven = new Set<Market>()
  for (const r of names.report()) {
    gates.set(r.market, names.gate(r.market))
    if (r.state !== 'streaming') unproven.add(r.market)
  }
  for (const r of trust?.report() ?? []) {
    const g = trust?.gate(r.market) ?? 'open'
    const had = gates.get(r.market) ?? 'open'
    gates.set(r.market, STRICTNESS[g] > STRICTNESS[had] ? g : had)
  }
  planner.setMarketGates(gates, unproven)
}

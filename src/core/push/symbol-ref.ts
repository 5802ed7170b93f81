import type { Market } from '../../shared/markets/market'
import type { QuoteEntry } from '../quotes/quote-entry'

/**
 * A pushed symbol as the push scanner's symbol table knows it (push-scan.ts): the symbol and what
 * the stream's route and the store found for it on its last tick, for the next tick to reuse
 * (render bench: ~8 hash look-ups per tick were about a tenth of the host's CPU at 10k ticks/s).
 * Every cached answer is checked before use against the part that gave it (its owner, its
 * epoch): a part that drops or reshuffles its state makes the next tick look up afresh, so a
 * stale handle costs a look-up, never a wrong answer.
 */
export interface SymbolRef {
  readonly symbol: string
  /** SubscriptionBook.route(routeTag, symbol), valid for routeBook at its routeEpoch. */
  routeBook: object | null
  routeEpoch: number
  routeTag: Market | null
  routed: Market | null
  /** The wanted symbol the route found (another spelling of `symbol`, or `symbol` itself). */
  routedSymbol: string
  /** The entry the store last applied this symbol's tick to (the store checks it is its own). */
  entry: QuoteEntry | null
}

export function newSymbolRef(symbol: string): SymbolRef {
  return {
    symbol,
    routeBook: null,
    routeEpoch: -1,
    routeTag: null,
    routed: null,
    routedSymbol: symbol,
    entry: null,
  }
}

import type { Market } from '../../shared/markets/market'
import type { Quote } from '../../shared/quote'
import type { BarRing } from '../bars/candle-builder'

/**
 * Per-symbol state kept where a tick already is, so one tick does not look its symbol up once
 * per part (render bench, issue 25: ~8 hash look-ups per tick were about a tenth of the host's
 * CPU at 10k ticks/s). Every cached handle is checked before use against the part that issued
 * it (its owner, its epoch): a part that drops or reshuffles its state makes the next tick take
 * a fresh handle, so a stale one costs a look-up, never a wrong answer.
 */

/** What a tick touches besides its quote, on the store's entry (QuoteStore.applyEntry). */
export interface SymbolSlot {
  /** The day volume last seen (tradedSince), undefined before the first priced tick. */
  heldVolume: number | undefined
  /** The symbol's 1m candle ring, valid while ringEpoch === CandleBuilder.epoch. */
  ring: BarRing | null
  ringEpoch: number
  /** FeedPlanner.tickEpoch when the planner last said this symbol's slot has ticked. */
  plannerEpoch: number
}

export function newSymbolSlot(): SymbolSlot {
  return { heldVolume: undefined, ring: null, ringEpoch: -1, plannerEpoch: -1 }
}

/** A symbol's place in the store: its quote and the slot beside it. Made by QuoteStore only. */
export interface QuoteEntry {
  readonly quote: Readonly<Quote>
  readonly slot: SymbolSlot
}

/**
 * A pushed symbol as the push scanner's symbol table knows it (push-scan.ts): the symbol and what
 * the stream's route and the store found for it on its last tick, for the next tick to reuse.
 */
export interface SymbolRef {
  readonly symbol: string
  /** SubscriptionBook.route(routeTag, symbol), valid for routeBook at its routeEpoch. */
  routeBook: object | null
  routeEpoch: number
  routeTag: Market | null
  routed: Market | null
  /** The entry the store last applied this symbol's tick to (the store checks it is its own). */
  entry: QuoteEntry | null
}

export function newSymbolRef(symbol: string): SymbolRef {
  return { symbol, routeBook: null, routeEpoch: -1, routeTag: null, routed: null, entry: null }
}

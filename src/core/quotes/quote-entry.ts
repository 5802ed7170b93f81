import type { Quote } from '../../shared/quote'
import type { BarRing } from '../bars/candle-builder'

/**
 * A symbol's place in the store: its quote, and beside it what a tick touches besides the quote,
 * kept where the tick already is so one tick does not look its symbol up once per part (render
 * bench: ~8 hash look-ups per tick were about a tenth of the host's CPU at 10k ticks/s). A cached
 * handle is checked against the part that issued it (its epoch) before use.
 */
/**
 * What a quote listener keeps per symbol between ticks, handed to it with each quote
 * (quote-ingest.ts): the alert engine's rules for the symbol, valid while alertEpoch is its rule
 * set's (core/alerts alert-engine.ts RuleMemo), so a tick looks none up.
 */
export interface ListenerMemo {
  alertRules: unknown
  alertEpoch: number
}

export interface SymbolSlot extends ListenerMemo {
  /** The day volume last seen (tradedSince), undefined before the first priced tick. */
  heldVolume: number | undefined
  /** The symbol's 1m candle ring, valid while ringEpoch === CandleBuilder.epoch. */
  ring: BarRing | null
  ringEpoch: number
  /** FeedPlanner.tickEpoch when the planner last said this symbol's slot has ticked. */
  plannerEpoch: number
  /** When a push last moved the symbol's last price (the frozen-price check reads it). */
  streamMovedAt: number
  /** The last price the stream itself last pushed (undefined before its first push). */
  streamLast: number | null | undefined
  /** When the stream last pushed a price for the symbol. */
  streamSeenAt: number
}

export function newSymbolSlot(): SymbolSlot {
  return {
    heldVolume: undefined,
    ring: null,
    ringEpoch: -1,
    plannerEpoch: -1,
    streamMovedAt: 0,
    streamLast: undefined,
    streamSeenAt: 0,
    alertRules: null,
    alertEpoch: -1,
  }
}

/** A symbol's place in the store: its quote and the slot beside it. Made by QuoteStore only. */
export interface QuoteEntry {
  readonly quote: Readonly<Quote>
  readonly slot: SymbolSlot
}

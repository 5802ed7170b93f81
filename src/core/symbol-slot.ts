import type { BarRing } from './candle-builder'

/**
 * What a tick touches besides its quote, kept on the store's entry (QuoteStore.applyEntry) so one
 * tick looks its symbol up once instead of once per part (engine ingest; render bench: ~8 hash
 * look-ups per tick were about a tenth of the host's CPU at 10k ticks/s). Each cached handle
 * carries the epoch of the part that issued it: a part that drops or reshuffles its own state
 * bumps its epoch, and the next tick takes a fresh handle.
 */
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

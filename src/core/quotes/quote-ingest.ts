import type { Quote } from '../../shared/quote'
import type { CandleBuilder } from '../bars/candle-builder'
import type { QuoteUpdate } from './quote-fields'
import type { ListenerMemo } from './quote-entry'
import type { QuoteEntry, QuoteStore } from './quote-store'
import type { SymbolStatusBook } from './symbol-statuses'
import { tradedSince } from './traded-volume'

/**
 * Where every quote update lands, streamed or polled: merged into the store, added to the
 * symbol's minute bar, its status marked priced, handed to the engine's listeners. Apart from
 * engine.ts because it is the hot path (bench/ingest): one look-up per tick, nothing allocated,
 * and readable on its own.
 */
/** Hears every merged quote, with the symbol's memo (what the listener keeps per symbol). */
export type QuoteListener = (quote: Quote, memo: ListenerMemo) => void

export class QuoteIngest {
  private readonly listeners = new Set<QuoteListener>()

  constructor(
    private readonly quotes: QuoteStore,
    private readonly candles: CandleBuilder,
    private readonly statuses: SymbolStatusBook,
  ) {}

  quote(update: QuoteUpdate): Quote {
    return this.entry(update).quote
  }

  /** One look-up for the whole tick: the store's entry carries the symbol's slot. */
  entry(update: QuoteUpdate): QuoteEntry {
    const entry = this.quotes.applyEntry(update)
    const quote = entry.quote
    const slot = entry.slot
    if (quote.last !== null) {
      const candles = this.candles
      if (slot.ringEpoch !== candles.epoch || slot.ring === null) {
        slot.ring = candles.minuteRing(quote.key)
        slot.ringEpoch = candles.epoch
      }
      candles.addTo(slot.ring, quote.ts, quote.last, tradedSince(slot, quote.volume))
    }
    this.statuses.priced(quote.key)
    for (const l of this.listeners) l(quote, slot)
    return entry
  }

  onQuote(listener: QuoteListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

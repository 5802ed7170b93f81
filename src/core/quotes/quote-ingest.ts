import type { Quote } from '../../shared/quote'
import type { CandleBuilder } from '../bars/candle-builder'
import type { QuoteUpdate } from './quote-fields'
import type { QuoteEntry, QuoteStore } from './quote-store'
import type { SymbolStatusBook } from './symbol-statuses'
import { tradedSince } from './traded-volume'

/**
 * Where every quote update lands, streamed or polled: merged into the store, added to the
 * symbol's minute bar, its status marked priced, handed to the engine's listeners. Apart from
 * engine.ts because it is the hot path (bench/ingest): one look-up per tick, nothing allocated,
 * and readable on its own.
 */
export class QuoteIngest {
  private readonly listeners = new Set<(quote: Quote) => void>()

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
    if (quote.last !== null) {
      const slot = entry.slot
      const candles = this.candles
      if (slot.ringEpoch !== candles.epoch || slot.ring === null) {
        slot.ring = candles.minuteRing(quote.key)
        slot.ringEpoch = candles.epoch
      }
      candles.addTo(slot.ring, quote.ts, quote.last, tradedSince(slot, quote.volume))
    }
    this.statuses.priced(quote.key)
    for (const l of this.listeners) l(quote)
    return entry
  }

  onQuote(listener: (quote: Quote) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

import type { Market } from '../../shared/markets/market'
import type { Bar, Interval } from '../../shared/quote'
import type { PackedFigures } from './packed-figures'
import type { QuoteFields } from '../quotes/quote-fields'
import type { SymbolRef } from './symbol-slot'

/** One frame of the stream as push-parser.ts (or the push scanner) read it. */
export type ParsedFrame =
  | {
      kind: 'tick'
      market: Market | null
      symbol: string
      fields: QuoteFields
      ts: number | null
      /** The symbol's handle when the push scanner read the tick (push-scan.ts). */
      ref?: SymbolRef | undefined
      /** The scanned tick's figures, packed (packed-figures.ts); `fields` unpacks them. */
      packed?: PackedFigures | undefined
      /** The push's market word when it names none of ours (`market` null): the service's own. */
      tag?: string | undefined
    }
  | { kind: 'candle'; market: Market | null; symbol: string; interval: Interval | null; bar: Bar }
  | { kind: 'ping'; reply: string | null }
  | { kind: 'pong' }
  | { kind: 'subscribed'; market: Market | null; symbols: string[] }
  | { kind: 'error'; code: string; message: string; symbols: string[] }
  | { kind: 'ignored' }
  | { kind: 'malformed'; reason: string }

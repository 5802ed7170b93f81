import type { Market } from '../../shared/markets/market'
import type { Bar, Interval } from '../../shared/quote'
import type { PackedFigures } from './packed-figures'
import type { QuoteFields } from '../quotes/quote-fields'
import type { SymbolRef } from './symbol-ref'

/** One frame of the stream as push-parser.ts (or the push scanner) read it. */
export type ParsedFrame =
  | {
      kind: 'tick'
      market: Market | null
      symbol: string
      /** The figures under the default field reading (field-reading.ts); maybe none. */
      fields: QuoteFields
      ts: number | null
      /**
       * The item the tick was read from (its keys as the service wrote them), for a field
       * reading other than the default; a scanned tick's is its figures under their own names.
       */
      raw?: Readonly<Record<string, unknown>> | undefined
      /** `ts` is a wall-clock time without an offset, to be read in the market's zone. */
      local?: boolean | undefined
      /** The symbol's handle when the push scanner read the tick (push-scan.ts). */
      ref?: SymbolRef | undefined
      /** The scanned tick's figures, packed (packed-figures.ts); `fields` unpacks them. */
      packed?: PackedFigures | undefined
      /** The push's market word when it names none of ours (`market` null): the service's own. */
      tag?: string | undefined
    }
  | {
      kind: 'candle'
      market: Market | null
      symbol: string
      interval: Interval | null
      bar: Bar
      /** The bar's times are wall-clock times without an offset (the market's zone). */
      local?: boolean
    }
  /** An object with numbers whose symbol is under no key we know (the client looks for one). */
  | {
      kind: 'item'
      market: Market | null
      raw: Readonly<Record<string, unknown>>
      tag?: string | undefined
    }
  | { kind: 'ping'; reply: string | null }
  | { kind: 'pong' }
  | { kind: 'subscribed'; market: Market | null; symbols: string[] }
  | { kind: 'error'; code: string; message: string; symbols: string[] }
  | { kind: 'ignored' }
  | { kind: 'malformed'; reason: string }

import type { Market } from '../shared/market'
import { QUOTE_FIGURES, type Quote, type QuoteFigure } from '../shared/quote'
import type { SymbolRef } from './symbol-slot'

/** The price fields a REST snapshot or a push may carry; any subset (pushes are often partial). */
export const QUOTE_FIELDS = QUOTE_FIGURES
export type QuoteField = QuoteFigure
export type QuoteFields = Partial<Record<QuoteField, number>>

/** One normalised update from either transport, before it is merged into the QuoteStore. */
export interface QuoteUpdate {
  market: Market
  symbol: string
  fields: QuoteFields
  /** Epoch ms of the data when the service said; null to use receive time. */
  ts: number | null
  source: Exclude<Quote['source'], 'cache'>
  /**
   * When the frame carrying it arrived (epoch ms); absent means "now" at merge time. The stream
   * sets it once per frame so the store need not read the clock once per tick.
   */
  receivedAt?: number
  /** The pushed symbol's handle (push-scan.ts), saving the store its look-up; absent for polls. */
  ref?: SymbolRef | undefined
}

/** An update to refill per tick (StreamClient reuses one instead of allocating one per tick). */
export function reusableUpdate(source: QuoteUpdate['source']): QuoteUpdate {
  return {
    market: 'crypto',
    symbol: '',
    fields: {},
    ts: null,
    source,
    receivedAt: 0,
    ref: undefined,
  }
}

/** Refills `u` in place for the next tick; returns it. */
export function refillUpdate(
  u: QuoteUpdate,
  market: Market,
  symbol: string,
  fields: QuoteFields,
  ts: number | null,
  receivedAt: number,
  ref?: SymbolRef,
): QuoteUpdate {
  u.ref = ref
  u.market = market
  u.symbol = symbol
  u.fields = fields
  u.ts = ts
  u.receivedAt = receivedAt
  return u
}

/** Services send numbers as numbers or as strings; anything else (NaN, '', objects) is absent. */
export function coerceNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value)
    return Number.isFinite(n) ? n : undefined
  }
  return undefined
}

/**
 * Picks the known quote fields out of an untrusted object, tolerating the names other services
 * use for the same fields. A field's own name beats any alias; among aliases the first listed
 * wins (quote-fields.spec.ts keeps the original table-driven version as the reference).
 *
 * Hot path (bench/ingest): every name is a plain property read. Pushes of one dialect share one
 * object shape, so each read is a monomorphic inline-cache hit (~1 ns, also for absent names);
 * a for-in over the keys with table look-ups and keyed writes cost several times more.
 */
export function pickQuoteFields(raw: Record<string, unknown>): QuoteFields {
  return pickQuoteFieldsIfAny(raw) ?? {}
}

/** pickQuoteFields, or null when the object carries none of the fields (no empty object made). */
export function pickQuoteFieldsIfAny(raw: Record<string, unknown>): QuoteFields | null {
  let out: QuoteFields | null = null
  let v = coerceNumber(raw.last)
  if (v === undefined) v = firstNumber(raw.price, raw.p, raw.lastPrice, raw.close, raw.c)
  if (v !== undefined) (out ??= {}).last = v
  v = coerceNumber(raw.change) ?? firstNumber(raw.chg, raw.priceChange)
  if (v !== undefined) (out ??= {}).change = v
  v = coerceNumber(raw.changePercent)
  if (v === undefined) v = firstNumber(raw.changePct, raw.pct, raw.priceChangePercent)
  if (v !== undefined) (out ??= {}).changePercent = v
  v = coerceNumber(raw.open)
  if (v !== undefined) (out ??= {}).open = v
  v = coerceNumber(raw.high)
  if (v !== undefined) (out ??= {}).high = v
  v = coerceNumber(raw.low)
  if (v !== undefined) (out ??= {}).low = v
  v = coerceNumber(raw.prevClose) ?? firstNumber(raw.prev, raw.previousClose)
  if (v !== undefined) (out ??= {}).prevClose = v
  v = coerceNumber(raw.volume) ?? firstNumber(raw.vol, raw.v)
  if (v !== undefined) (out ??= {}).volume = v
  v = coerceNumber(raw.quoteVolume)
  if (v !== undefined) (out ??= {}).quoteVolume = v
  v = coerceNumber(raw.bid) ?? firstNumber(raw.bidPrice, raw.b)
  if (v !== undefined) (out ??= {}).bid = v
  v = coerceNumber(raw.ask) ?? firstNumber(raw.askPrice, raw.a)
  if (v !== undefined) (out ??= {}).ask = v
  v = coerceNumber(raw.bidSize)
  if (v !== undefined) (out ??= {}).bidSize = v
  v = coerceNumber(raw.askSize)
  if (v !== undefined) (out ??= {}).askSize = v
  v = coerceNumber(raw.trades)
  if (v !== undefined) (out ??= {}).trades = v
  return out
}

/** The first of up to five candidates that coerces to a number (absent ones are undefined). */
function firstNumber(
  a: unknown,
  b: unknown,
  c?: unknown,
  d?: unknown,
  e?: unknown,
): number | undefined {
  if (a === undefined && b === undefined && c === undefined && d === undefined && e === undefined)
    return undefined
  return coerceNumber(a) ?? coerceNumber(b) ?? coerceNumber(c) ?? coerceNumber(d) ?? coerceNumber(e)
}

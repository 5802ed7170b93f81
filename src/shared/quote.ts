import { z } from 'zod'
import { MarketSchema, type Market } from './market'

export const QuoteSourceSchema = z.enum(['stream', 'poll', 'cache'])
export type QuoteSource = z.infer<typeof QuoteSourceSchema>

const num = z.number().nullable()

/**
 * The numbers of a quote (spec: TickerQuote), in one order every layer shares: the engine's
 * change bits, the bridge frame's columns and the renderer's row fields are all this list.
 */
export const QUOTE_FIGURES = [
  'last',
  'change',
  'changePercent',
  'open',
  'high',
  'low',
  'prevClose',
  'volume',
  'quoteVolume',
  'bid',
  'ask',
  'bidSize',
  'askSize',
  'trades',
] as const
export type QuoteFigure = (typeof QUOTE_FIGURES)[number]

/** One symbol's latest known values. Fields the service did not send are null, never 0. */
export const QuoteSchema = z.object({
  key: z.string(),
  market: MarketSchema,
  symbol: z.string(),
  last: num,
  change: num,
  changePercent: num,
  open: num,
  high: num,
  low: num,
  prevClose: num,
  volume: num,
  quoteVolume: num,
  bid: num,
  ask: num,
  bidSize: num,
  askSize: num,
  /** Trade count of the quote's window (spec: TickerQuote.trades). */
  trades: num,
  /** Epoch ms of the data itself (service time when given, else receive time). */
  ts: z.number(),
  /** Epoch ms when this process received it. */
  receivedAt: z.number(),
  source: QuoteSourceSchema,
  stale: z.boolean(),
})
export type Quote = z.infer<typeof QuoteSchema>

/** Changed fields only, as carried in a bridge batch; `key` always present. */
export const QuotePatchSchema = QuoteSchema.partial().extend({ key: z.string() })
export type QuotePatch = z.infer<typeof QuotePatchSchema>

/** Per-symbol problems: the symbol keeps its row and says why it has no live price. */
export const SymbolStatusCodeSchema = z.enum([
  'OK',
  'NOT_SUPPORTED',
  'INVALID_SYMBOL',
  'UNKNOWN_SYMBOL',
  'MARKET_NOT_ENABLED',
  'API_KEY_SCOPE_DENIED',
  /** A 403 without a code the spec lists: refused, reason unknown (rechecked after 15 min). */
  'FORBIDDEN',
  /** The service called the request for this symbol invalid (400 INVALID_REQUEST). */
  'INVALID_REQUEST',
  'NO_DATA',
])
export type SymbolStatusCode = z.infer<typeof SymbolStatusCodeSchema>

export const SymbolStatusSchema = z.object({
  key: z.string(),
  code: SymbolStatusCodeSchema,
  message: z.string(),
})
export type SymbolStatus = z.infer<typeof SymbolStatusSchema>

export const BarSchema = z.object({
  openTime: z.number(),
  closeTime: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
})
export type Bar = z.infer<typeof BarSchema>

/** Canonical intervals; the service's aliases (1, 1m, 60, 1h, 240, 4h …) normalise to these. */
export const INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1mo'] as const
export const IntervalSchema = z.enum(INTERVALS)
export type Interval = z.infer<typeof IntervalSchema>

/** A quote with no values yet: every price field null (never 0), as a row looks before its first update. */
export function blankQuote(market: Market, symbol: string, at: number, source: QuoteSource): Quote {
  return {
    key: `${market}:${symbol}`,
    market,
    symbol,
    last: null,
    change: null,
    changePercent: null,
    open: null,
    high: null,
    low: null,
    prevClose: null,
    volume: null,
    quoteVolume: null,
    bid: null,
    ask: null,
    bidSize: null,
    askSize: null,
    trades: null,
    ts: at,
    receivedAt: at,
    source,
    stale: false,
  }
}

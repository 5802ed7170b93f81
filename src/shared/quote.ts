import { z } from 'zod'
import { MarketSchema, type Market } from './markets/market'

export const QuoteSourceSchema = z.enum(['stream', 'poll', 'cache'])
export type QuoteSource = z.infer<typeof QuoteSourceSchema>

/**
 * The numbers of a quote (spec: TickerQuote): the one table of quote figures. Its order is every
 * layer's: the engine's change bits, the packed figures and the store's mirror slots
 * (core/push/figure-code.ts writes their code from this list), the push scanner's keys, the bridge
 * frame's columns, the grid's sort columns and the renderer's row fields. Adding a figure is adding
 * its name here (and, when other services name it otherwise, its aliases in
 * core/push/packed-figures.ts); core/push/figure-code.spec.ts builds everything from an extended
 * table.
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
  /** Trade count of the quote's window (spec: TickerQuote.trades). */
  'trades',
] as const
export type QuoteFigure = (typeof QUOTE_FIGURES)[number]

/** A quote's other keys, and the frame's columns after the figures (quote-frame.ts). */
const NOT_FIGURES = ['key', 'market', 'symbol', 'ts', 'receivedAt', 'source', 'stale', 'lastIsMid']
/**
 * Masks are 32-bit integers: the bridge frame's holds the figures and 5 more columns, the push
 * scanner's the figures and 3 more keys; 27 keeps both clear of the sign bit.
 */
export const MAX_FIGURES = 27

/**
 * The table's rules, checked at load (below) and by anything built from a table: names are
 * identifiers (core writes them into code), unique, not a quote's other keys, and few enough
 * for the masks.
 */
export function checkFigureTable(names: readonly string[]): void {
  const problem = (why: string): never => {
    throw new Error(`The quote figure table ${JSON.stringify(names)}: ${why}`)
  }
  if (names.length === 0 || names.length > MAX_FIGURES)
    problem(`holds ${names.length} figures, 1 to ${MAX_FIGURES} fit the masks`)
  for (const [i, name] of names.entries()) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(name)) problem(`${name} is not a camelCase name`)
    if (names.indexOf(name) !== i) problem(`${name} is listed twice`)
    if (NOT_FIGURES.includes(name)) problem(`${name} is a quote key, not a figure`)
  }
}
checkFigureTable(QUOTE_FIGURES)

const num = z.number().nullable()
const FIGURE_SHAPE = Object.fromEntries(QUOTE_FIGURES.map((f) => [f, num])) as Record<
  QuoteFigure,
  typeof num
>

/** One symbol's latest known values. Fields the service did not send are null, never 0. */
export const QuoteSchema = z.object({
  key: z.string(),
  market: MarketSchema,
  symbol: z.string(),
  ...FIGURE_SHAPE,
  /** Epoch ms of the data itself (service time when given, else receive time). */
  ts: z.number(),
  /** Epoch ms when this process received it. */
  receivedAt: z.number(),
  source: QuoteSourceSchema,
  stale: z.boolean(),
  /**
   * `last` is the mid of bid and ask, not a trade: the service quotes this symbol with bid and
   * ask only. Every view that shows the price says so, and alerts say they watch the mid. Absent
   * (older cache files, quotes made by hand) is false; the store always sets it.
   */
  lastIsMid: z.boolean().optional(),
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
    ...blankFigures(),
    ts: at,
    receivedAt: at,
    source,
    stale: false,
    lastIsMid: false,
  }
}

/** Every figure null, in table order. */
function blankFigures(): Record<QuoteFigure, null> {
  const figures = {} as Record<QuoteFigure, null>
  for (const f of QUOTE_FIGURES) figures[f] = null
  return figures
}

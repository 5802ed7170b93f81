import { quoteCloseTime, type ServiceBehaviour } from './behaviour'
import type { Dialect } from './dialects'
import { formatBar } from './dialects'
import { findInMarkets, type Instrument, type SimMarket } from './market/instruments'
import { historicalBars, normaliseInterval } from './market/kline-bars'
import { nameOf } from './market-names'
import type { Scope } from './plans-and-keys'
import type { PriceBook } from './market/price-walk'
import { quoteShape, shapeRow, type QuoteGaps } from './quote-shapes'

/**
 * The REST endpoints (spec: Endpoints). Each route parses its query, never trusting it, and
 * returns either a payload for the envelope's `data` or a 400 with the spec's code.
 * Where the spec says "not shown" the choice is documented at the route.
 */

export interface RouteContext {
  book: PriceBook
  dialect: Dialect
  behaviour: ServiceBehaviour
  seed: number
  now: number
  /** Symbols without a quote, or before their first trade (quote-shapes.ts). */
  gaps?: QuoteGaps
  /** Told of every row a quote answer carries (SimServer.servedAt, served-prices.ts). */
  served?: (inst: Instrument, row: Record<string, unknown>) => void
}

const NO_GAPS: QuoteGaps = { noQuote: new Set(), untraded: new Set() }

export type RouteResult =
  | { ok: true; data: unknown }
  | {
      ok: false
      status: 400
      code: 'INVALID_REQUEST' | 'INVALID_SYMBOL' | 'UNKNOWN_SYMBOL'
      message: string
    }

export interface Route {
  scope: Scope
  handle(query: URLSearchParams, ctx: RouteContext): RouteResult
}

/** The spec names only "the upstream chart-data provider"; tv-futures suggests this one. */
export const KLINE_SOURCE = 'tradingview'
const MAX_SYMBOLS = 50
const MAX_LIMIT = 5000
const DEFAULT_LIMIT = 300

const CRYPTO_FORMAT = /^[A-Z0-9]{2,20}$/
const GENERAL_FORMAT = /^[A-Z0-9][A-Z0-9.!_-]{0,19}$/

function bad(
  code: 'INVALID_REQUEST' | 'INVALID_SYMBOL' | 'UNKNOWN_SYMBOL',
  message: string,
): RouteResult {
  return { ok: false, status: 400, code, message }
}

interface QuoteRouteSpec {
  scope: Scope
  markets: readonly SimMarket[]
  format: RegExp
  /**
   * Multi-market symbols may carry a chart-platform prefix ("OANDA:EURUSD"; spec: Listed
   * endpoints without detail).
   */
  stripPrefix: boolean
  /** The multi-market payload is "not shown": we add `market` so the client can tell rows apart. */
  withMarket: boolean
}

function quoteRoute(spec: QuoteRouteSpec): Route {
  return {
    scope: spec.scope,
    handle(query, ctx) {
      const onlySymbol = spec.withMarket && ctx.behaviour.multiQuoteParam === 'symbol'
      const raw = onlySymbol ? query.get('symbol') : (query.get('symbols') ?? query.get('symbol'))
      if (raw === null || raw.trim() === '')
        return bad('INVALID_REQUEST', `${onlySymbol ? 'symbol' : 'symbols'} is required`)
      let symbols = [
        ...new Set(
          raw
            .split(',')
            .map((s) => s.trim().toUpperCase())
            .filter((s) => s !== '')
            .map((s) =>
              spec.stripPrefix && s.includes(':') ? s.slice(s.lastIndexOf(':') + 1) : s,
            ),
        ),
      ]
      if (symbols.length === 0) return bad('INVALID_REQUEST', 'symbols is empty')
      if (symbols.length > MAX_SYMBOLS) {
        // Beyond 50 entries: rejection or clamping is "not shown" (spec: Errors); the dialect picks.
        if (ctx.dialect.outOfRange === 'reject') {
          return bad('INVALID_REQUEST', `at most ${MAX_SYMBOLS} symbols per request`)
        }
        symbols = symbols.slice(0, MAX_SYMBOLS)
      }
      const malformed = symbols.filter((s) => !spec.format.test(s))
      if (malformed.length > 0)
        return bad('INVALID_SYMBOL', naming(ctx, 'invalid symbol', malformed))
      const found: Instrument[] = []
      const unknown: string[] = []
      const markets = spec.markets.filter((m) => m !== 'agri' || ctx.behaviour.agriOnMultiQuote)
      for (const s of symbols) {
        const inst = findInMarkets(markets, s)
        if (inst) found.push(inst)
        else unknown.push(s)
      }
      // One bad symbol fails the whole request: a single envelope carries a single error.
      if (unknown.length > 0) return bad('UNKNOWN_SYMBOL', naming(ctx, 'unknown symbol', unknown))
      return { ok: true, data: quoteRows(found, spec, ctx) }
    },
  }
}

/**
 * The answer's rows: each symbol stepped once and shown as its shape says (quote-shapes.ts);
 * none at all is `[]`, or `data: null` where the service says "no quote" that way.
 */
function quoteRows(found: Instrument[], spec: QuoteRouteSpec, ctx: RouteContext): unknown[] | null {
  const closeTime = quoteCloseTime(ctx.behaviour, ctx.now)
  const rows: unknown[] = []
  for (const inst of found) {
    const quote = { ...ctx.book.step(inst, ctx.now), closeTime }
    const row = shapeRow(quote, quoteShape(inst, ctx.behaviour, ctx.gaps ?? NO_GAPS))
    if (row === null) continue
    ctx.served?.(inst, row)
    rows.push(spec.withMarket ? { ...row, market: nameOf(ctx.behaviour, inst.market) } : row)
  }
  return rows.length === 0 && ctx.behaviour.noQuoteAsNull ? null : rows
}

/** msg is free text (spec: Response envelope); whether it names the symbols is the service's call. */
function naming(ctx: RouteContext, what: string, symbols: string[]): string {
  return ctx.behaviour.refusalNamesSymbols ? `${what}: ${symbols.join(',')}` : what
}

type LimitParse = { ok: true; limit: number } | { ok: false; result: RouteResult }

function parseLimit(raw: string | null, dialect: Dialect): LimitParse {
  if (raw === null || raw === '') return { ok: true, limit: DEFAULT_LIMIT }
  if (!/^-?\d+$/.test(raw.trim())) {
    return { ok: false, result: bad('INVALID_REQUEST', 'limit must be an integer') }
  }
  const n = Number(raw)
  if (n >= 1 && n <= MAX_LIMIT) return { ok: true, limit: n }
  if (dialect.outOfRange === 'reject') {
    return { ok: false, result: bad('INVALID_REQUEST', `limit must be 1 to ${MAX_LIMIT}`) }
  }
  return { ok: true, limit: Math.min(MAX_LIMIT, Math.max(1, n)) }
}

function klineRoute(scope: Scope, market: SimMarket): Route {
  return {
    scope,
    handle(query, ctx) {
      const raw = query.get('symbol')
      if (raw === null || raw.trim() === '') return bad('INVALID_REQUEST', 'symbol is required')
      const symbol = raw.trim().toUpperCase()
      if (!GENERAL_FORMAT.test(symbol))
        return bad('INVALID_SYMBOL', naming(ctx, 'invalid symbol', [symbol]))
      const interval = normaliseInterval(query.get('interval') ?? '1')
      if (!interval) return bad('INVALID_REQUEST', `unsupported interval: ${query.get('interval')}`)
      const limit = parseLimit(query.get('limit'), ctx.dialect)
      if (!limit.ok) return limit.result
      const inst = findInMarkets([market], symbol)
      if (!inst) return bad('UNKNOWN_SYMBOL', naming(ctx, 'unknown symbol', [symbol]))
      const bars = historicalBars(inst, interval, limit.limit, ctx.now, ctx.seed)
      return {
        ok: true,
        data: {
          symbol: inst.symbol,
          interval,
          bars: bars.map((b) => formatBar(ctx.dialect, b, market)),
          source: KLINE_SOURCE,
          market: nameOf(ctx.behaviour, market),
        },
      }
    },
  }
}

export const ROUTES: Readonly<Record<string, Route>> = {
  '/api/v1/market/tv-futures/kline': klineRoute('futures', 'futures'),
  // The agri endpoint's parameters are "not shown": it takes the same ones as tv-futures/kline.
  '/api/v1/market/agri/kline': klineRoute('agri', 'agri'),
  '/api/v1/market/futures/quote': quoteRoute({
    scope: 'crypto',
    markets: ['usdt-futures'],
    format: CRYPTO_FORMAT,
    stripPrefix: false,
    withMarket: false,
  }),
  '/api/v1/market/crypto/quote': quoteRoute({
    scope: 'crypto',
    markets: ['crypto'],
    format: CRYPTO_FORMAT,
    stripPrefix: false,
    withMarket: false,
  }),
  '/api/v1/market/quote': quoteRoute({
    scope: 'multi',
    markets: ['fx', 'commodity', 'cn', 'hk', 'futures', 'index', 'agri'],
    format: GENERAL_FORMAT,
    stripPrefix: true,
    withMarket: true,
  }),
}

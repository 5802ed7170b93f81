import type { Market } from '../../shared/markets/market'
import { parseBars, quoteTime } from '../bars/bar-time'
import { TickdeskError } from '../errors'
import { isPlainText } from '../../shared/security/plain-text'
import { pickQuoteFields, type QuoteUpdate } from '../quotes/quote-fields'
import { timetableFor } from '../../shared/markets/market-timetables'

export interface ParsedTickerQuotes {
  updates: QuoteUpdate[]
  /** Entries without a usable symbol (or not objects at all). */
  skipped: number
  /**
   * symbol -> the service's own `market` tag on its row, when it sent one (the multi-market
   * quote's rows; "Values of the market tag: not shown"): a name the stream may know it by.
   */
  tags: Map<string, string> | null
}

/**
 * An untrusted TickerQuote array (spec: TickerQuote) to QuoteUpdate[]. Numbers may arrive as
 * strings; unknown fields are ignored; ts comes from closeTime (any unit bar-time.ts reads), capped
 * at `receivedAt` because closeTime is the window's close, which may lie ahead (a window closing at
 * the end of the day); null when absent, so the store uses receive time. The multi-market quote's
 * shape is "not shown" (spec: Listed endpoints without detail), so an object keyed by symbol is
 * read too, and a chart-platform prefix ("OANDA:EURUSD") is dropped. Computes nothing: the
 * QuoteStore derives change/changePercent from prevClose when they are missing. `data: null` (or
 * absent) is a service's way of saying "no quote": no rows, each symbol asked then has none
 * (NO_DATA), and nothing is wrong with the service. A payload that is not a list otherwise is
 * BAD_RESPONSE.
 */
export function parseTickerQuotes(
  raw: unknown,
  market: Market,
  receivedAt: number,
): ParsedTickerQuotes {
  if (raw === null || raw === undefined) return { updates: [], skipped: 0, tags: null }
  const list = asList(raw)
  if (!list) {
    throw new TickdeskError({
      code: 'BAD_RESPONSE',
      message: 'quote payload is not a list of TickerQuote',
    })
  }
  const updates: QuoteUpdate[] = []
  let skipped = 0
  let tags: Map<string, string> | null = null
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      skipped += 1
      continue
    }
    const r = entry as Record<string, unknown>
    const symbol = typeof r.symbol === 'string' ? bareSymbol(r.symbol) : ''
    // A symbol holding control characters is no symbol: it would reach rows and terminals.
    if (symbol === '' || !isPlainText(symbol)) {
      skipped += 1
      continue
    }
    if (typeof r.market === 'string' && r.market !== '' && isPlainText(r.market))
      (tags ??= new Map()).set(symbol, r.market)
    updates.push({
      market,
      symbol,
      fields: pickQuoteFields(r),
      ts: quoteTime(r.closeTime, receivedAt, timetableFor(market, symbol).timeZone),
      source: 'poll',
    })
  }
  return { updates, skipped, tags }
}

/** "OANDA:EURUSD" -> "EURUSD": the symbol without a chart platform's exchange prefix. */
function bareSymbol(raw: string): string {
  const s = raw.trim().toUpperCase()
  return s.slice(s.lastIndexOf(':') + 1)
}

/**
 * The spec says data is an array; a single object, a wrapped list, or an object keyed by symbol
 * (whose entries may leave the symbol out) is tolerated.
 */
function asList(raw: unknown): unknown[] | null {
  if (Array.isArray(raw)) return raw
  if (typeof raw !== 'object' || raw === null) return null
  const r = raw as Record<string, unknown>
  for (const field of ['list', 'items', 'quotes', 'data']) {
    if (Array.isArray(r[field])) return r[field]
  }
  if (typeof r.symbol === 'string') return [raw]
  const entries = Object.entries(r).filter(
    ([, v]) => typeof v === 'object' && v !== null && !Array.isArray(v),
  )
  if (entries.length === 0) return null
  return entries.map(([symbol, v]) => ({ symbol, ...(v as Record<string, unknown>) }))
}

/**
 * Agriculture has no quote endpoint (spec: Endpoints lists only agri/kline), so its last price is
 * the close of the latest 1m bar; ts is that bar's close, capped at now for a bar still open.
 */
export function quoteFromLatestBar(
  data: unknown,
  market: Market,
  symbol: string,
  now: number,
): QuoteUpdate | null {
  const raw = Array.isArray(data) ? data : (data as { bars?: unknown } | null)?.bars
  const last = parseBars(raw, '1m', timetableFor(market, symbol).timeZone).bars.at(-1)
  if (!last) return null
  return {
    market,
    symbol,
    fields: { last: last.close },
    ts: Math.min(last.closeTime, now),
    source: 'poll',
  }
}

import { MARKETS, MarketSchema, parseSymbolKey, type Market } from '../markets/market'

/**
 * Ranking of instruments for a typed query, the way a trader's search box behaves: the exact
 * code first, then codes that start with it, then names, then anything that merely contains it.
 *   100 the symbol itself ("600519", "xauusd")
 *    95 a curated search word ("gold" for XAUUSD, "btc" for BTCUSDT)
 *    90 the root of a continuous contract ("es" for ES1!)
 *    80 the symbol starts with the query ("btc" -> BTCUSDT)
 *    70 the name starts with the query ("tencent" -> Tencent Holdings)
 *    60 every query word starts a word of the name or the search words ("s&p" -> S&P 500)
 *    40 the symbol contains the query
 *    30 the name contains the query
 * Ties: shorter names first (the plain instrument before its variants), then catalogue order.
 * "market:" in front narrows to that market ("hk:tencent", "crypto:" lists crypto).
 */
export interface Searchable {
  market: Market
  symbol: string
  name: string
  /** Extra search words, lower case, space separated. */
  words: string
}

interface Prepared {
  symbol: string
  root: string
  name: string
  nameWords: string[]
  words: string[]
}

export interface ParsedQuery {
  market: Market | null
  text: string
}

export function parseQuery(query: string): ParsedQuery {
  const q = query.trim().toLowerCase()
  const colon = q.indexOf(':')
  if (colon > 0) {
    const market = MarketSchema.safeParse(q.slice(0, colon))
    if (market.success) return { market: market.data, text: q.slice(colon + 1).trim() }
  }
  return { market: null, text: q }
}

function prepare(s: Searchable): Prepared {
  const symbol = s.symbol.toLowerCase()
  const name = s.name.toLowerCase()
  return {
    symbol,
    root: symbol.replace(/\d!$/, ''),
    name,
    nameWords: name.split(/[\s()/-]+/).filter(Boolean),
    words: s.words.split(' ').filter(Boolean),
  }
}

const cache = new WeakMap<Searchable, Prepared>()
function prepared(s: Searchable): Prepared {
  let p = cache.get(s)
  if (p === undefined) {
    p = prepare(s)
    cache.set(s, p)
  }
  return p
}

/** The score of one instrument for a lower-cased query text; 0 = no match. */
export function score(s: Searchable, text: string): number {
  const p = prepared(s)
  const compact = text.replace(/\s+/g, '')
  if (p.symbol === compact) return 100
  if (p.words.includes(text)) return 95
  if (p.root === compact) return 90
  if (p.symbol.startsWith(compact)) return 80
  if (p.name.startsWith(text)) return 70
  const tokens = text.split(/\s+/).filter(Boolean)
  const starts = (t: string): boolean =>
    p.nameWords.some((w) => w.startsWith(t)) || p.words.some((w) => w.startsWith(t))
  if (tokens.length > 0 && tokens.every(starts)) return 60
  if (p.symbol.includes(compact)) return 40
  if (p.name.includes(text)) return 30
  return 0
}

const MARKET_ORDER = new Map(MARKETS.map((m, i) => [m, i]))

/** The best `limit` matches, best first; an empty query after a market lists that market. */
export function rank<T extends Searchable>(items: readonly T[], query: string, limit: number): T[] {
  const { market, text } = parseQuery(query)
  const pool = market === null ? items : items.filter((i) => i.market === market)
  if (text === '') return market === null ? [] : pool.slice(0, limit)
  const scored: Array<{ item: T; score: number; order: number }> = []
  pool.forEach((item, order) => {
    const s = score(item, text)
    if (s > 0) scored.push({ item, score: s, order })
  })
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      a.item.name.length - b.item.name.length ||
      (MARKET_ORDER.get(a.item.market) ?? 0) - (MARKET_ORDER.get(b.item.market) ?? 0) ||
      a.order - b.order,
  )
  return scored.slice(0, limit).map((s) => s.item)
}

/** A typed `market:SYMBOL` that names an instrument precisely (searching is then moot). */
export function exactKey(query: string): string | null {
  const ref = parseSymbolKey(query)
  return ref === null ? null : `${ref.market}:${ref.symbol}`
}

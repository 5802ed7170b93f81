import type { Migration } from './json-store'

/**
 * quotes-cache.json format versions:
 *   v1  the TickerQuote fields without the trade count
 *   v2  + trades (spec: TickerQuote.trades); a v1 quote gets null, i.e. "not sent", never 0
 * A v1 cache would otherwise fail the schema and be moved aside: the cached prices a trader
 * sees at start-up would be lost for one release.
 */
export const QUOTE_CACHE_VERSION = 2

export const QUOTE_CACHE_MIGRATIONS: Record<number, Migration> = {
  1: (data) => {
    if (!Array.isArray(data)) throw new TypeError('quotes-cache v1 is not a list')
    return data.map((q: unknown) =>
      typeof q === 'object' && q !== null && !Array.isArray(q) ? { trades: null, ...q } : q,
    )
  },
}

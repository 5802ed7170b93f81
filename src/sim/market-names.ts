import { isSimMarket, type SimMarket } from './market/instruments'

/**
 * How the service names its markets. The spec shows the stream's `market` field only as "e.g.
 * the crypto market" and the REST payload's market tag as "Values of the market tag: not shown",
 * so a real service may use words other than the client's. 'client': the client's own words
 * (and 'spot' for crypto); 'service': the words below (or those a test gives), on the stream
 * (subscribe and pushes) and in REST payloads' `market`, and nothing else.
 */
export type MarketNaming = 'client' | 'service'

/** The service's own words when it does not use the client's. */
export const SERVICE_MARKETS: Readonly<Record<SimMarket, string>> = {
  crypto: 'spot',
  'usdt-futures': 'futures_usdt',
  futures: 'cont_futures',
  fx: 'forex',
  commodity: 'commodities',
  cn: 'a_share',
  hk: 'hk_stock',
  index: 'indices',
  agri: 'agriculture',
}

/** A service's naming: which, and (for 'service') its words where they differ from the table. */
export interface Naming {
  marketNames: MarketNaming
  /** Words of this service's own in place of SERVICE_MARKETS' (a word no client could guess). */
  marketWords?: Partial<Record<SimMarket, string>> | undefined
}

/** A market in the service's words under this naming. */
export function nameOf(n: Naming, market: SimMarket): string {
  if (n.marketNames !== 'service') return market
  return n.marketWords?.[market] ?? SERVICE_MARKETS[market]
}

/** A market name a client sent, read under this naming; null when the service knows no such market. */
export function marketNamed(n: Naming, value: unknown): SimMarket | null {
  if (typeof value !== 'string') return null
  if (n.marketNames === 'service') {
    for (const m of Object.keys(SERVICE_MARKETS) as SimMarket[])
      if (nameOf(n, m) === value) return m
    return null
  }
  if (value === 'spot') return 'crypto'
  return isSimMarket(value) ? value : null
}

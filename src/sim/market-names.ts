import { isSimMarket, type SimMarket } from './market/instruments'

/**
 * How the service names its markets. The spec shows the stream's `market` field only as "e.g.
 * the crypto market" and the REST payload's market tag as "Values of the market tag: not shown",
 * so a real service may use words other than the client's. 'client': the client's own words
 * (and 'spot' for crypto); 'service': the words below, on the stream (subscribe and pushes) and
 * in REST payloads' `market`, and nothing else.
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

const BY_SERVICE_NAME = new Map<string, SimMarket>(
  Object.entries(SERVICE_MARKETS).map(([m, name]) => [name, m as SimMarket]),
)

/** A market in the service's words under this naming. */
export function nameOf(naming: MarketNaming, market: SimMarket): string {
  return naming === 'service' ? SERVICE_MARKETS[market] : market
}

/** A market name a client sent, read under this naming; null when the service knows no such market. */
export function marketNamed(naming: MarketNaming, value: unknown): SimMarket | null {
  if (typeof value !== 'string') return null
  if (naming === 'service') return BY_SERVICE_NAME.get(value) ?? null
  if (value === 'spot') return 'crypto'
  return isSimMarket(value) ? value : null
}

import type { Market } from '../../shared/markets/market'

/**
 * Which endpoint serves which market (spec: Endpoints). The spec gives quotes for crypto spot
 * (crypto/quote), USDT-margined perpetuals (futures/quote) and a multi-market quote for FX,
 * commodities, A-shares, HK, futures and indices; candles only for continuous futures
 * (tv-futures/kline) and agriculture (agri/kline). Agriculture is a commodity (spec: What the
 * service does, "commodities (metals, energy, agriculture)"), so agri quotes go to the batched
 * multi-market quote; only symbols it refuses fall back to their latest 1m agri/kline bar (the
 * poller decides). Markets without a kline route get their bars built from ticks by the engine.
 */
export type EndpointFamily = 'crypto' | 'usdt-futures' | 'multi' | 'futures-kline' | 'agri-kline'

export interface Route {
  path: string
  family: EndpointFamily
}

const CRYPTO: Route = { path: '/api/v1/market/crypto/quote', family: 'crypto' }
const USDT_FUTURES: Route = { path: '/api/v1/market/futures/quote', family: 'usdt-futures' }
const MULTI: Route = { path: '/api/v1/market/quote', family: 'multi' }
const FUTURES_KLINE: Route = { path: '/api/v1/market/tv-futures/kline', family: 'futures-kline' }
const AGRI_KLINE: Route = { path: '/api/v1/market/agri/kline', family: 'agri-kline' }

/** The quote endpoint for a market. */
export function quoteRoute(market: Market): Route {
  switch (market) {
    case 'crypto':
      return CRYPTO
    case 'usdt-futures':
      return USDT_FUTURES
    case 'futures':
    case 'fx':
    case 'commodity':
    case 'cn':
    case 'hk':
    case 'index':
    case 'agri':
      return MULTI
  }
}

/** The kline endpoint for a market, or null when the engine must build bars from ticks. */
export function klineRoute(market: Market): Route | null {
  if (market === 'futures') return FUTURES_KLINE
  if (market === 'agri') return AGRI_KLINE
  return null
}

/** Max symbols per quote call (spec: Limits, futures quote "1 to 50 entries"; applied to all). */
export const MAX_SYMBOLS_PER_CALL = 50

/** The market name sent in a stream subscribe: the client's own names (spec leaves them open). */
export function streamMarket(market: Market): string {
  return market
}

/** Where an agri symbol the multi-market quote refuses gets its last price (its latest 1m bar). */
export const AGRI_FALLBACK: Route = AGRI_KLINE

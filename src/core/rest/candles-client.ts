import type { SymbolKey } from '../../shared/markets/market'
import type { Bar, Interval } from '../../shared/quote'
import { parseBars } from '../bars/bar-time'
import { TickdeskError } from '../errors'
import { toWireInterval } from '../../shared/intervals'
import { klineRoute } from './market-routes'
import { timetableFor } from '../../shared/markets/market-timetables'
import { requireSymbolRef } from '../quotes/symbol-input'
import type { RestClient } from './rest-client'

/** Spec: GET /api/v1/market/tv-futures/kline, limit "default 300; range 1 to 5000". */
export const DEFAULT_CANDLE_LIMIT = 300
export const MAX_CANDLE_LIMIT = 5000

/** Clamped client-side: the spec does not say whether the service rejects or clamps. */
export function clampCandleLimit(limit: number): number {
  if (!Number.isFinite(limit)) return DEFAULT_CANDLE_LIMIT
  return Math.min(MAX_CANDLE_LIMIT, Math.max(1, Math.trunc(limit)))
}

/**
 * Fetches klines for one symbol through the governor (one metered call). Only futures and
 * agriculture have a kline endpoint; for every other market the engine builds bars from ticks,
 * so this throws NOT_SUPPORTED. Malformed bars are skipped; the result is ascending by openTime.
 * Bars may come as objects or as arrays (bar-time.ts parseBars).
 */
export async function fetchCandles(
  client: RestClient,
  key: SymbolKey,
  interval: Interval,
  limit: number,
  signal?: AbortSignal,
): Promise<Bar[]> {
  const ref = requireSymbolRef(key)
  const route = klineRoute(ref.market)
  if (!route) {
    throw new TickdeskError({
      code: 'NOT_SUPPORTED',
      message: `The service has no candles for ${ref.market}; bars are built from live ticks`,
    })
  }
  const query = {
    symbol: ref.symbol,
    interval: toWireInterval(interval),
    limit: String(clampCandleLimit(limit)),
  }
  const { data } = await client.get(route.path, query, signal)
  const raw = Array.isArray(data) ? data : (data as { bars?: unknown } | null)?.bars
  if (!Array.isArray(raw)) {
    throw new TickdeskError({
      code: 'BAD_RESPONSE',
      message: `kline payload for ${key} has no bars`,
    })
  }
  // A bar time without an offset is the venue's wall clock (bar-time.ts).
  return parseBars(raw, interval, timetableFor(ref.market, ref.symbol).timeZone).bars
}

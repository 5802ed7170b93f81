import type { Market, SymbolKey } from '../../shared/markets/market'
import { AGRI_FALLBACK, quoteRoute, type Route } from '../rest/market-routes'
import { BACKGROUND_POLL_MS, KLINE_FALLBACK_MS, SLOW_POLL_MS, type Tracked } from './poll-pace'
import type { PollVerdicts } from './poll-verdicts'

/**
 * Where a polled symbol is asked and how often at most: its market's quote endpoint, or for an
 * agri symbol the quote refused, its latest 1m kline bar (once a KLINE_FALLBACK_MS); a slow
 * helper once a SLOW_POLL_MS, a background one once a BACKGROUND_POLL_MS, any other at the
 * poller's floor.
 */

/** Where a symbol's quote is asked; shared objects, so asking allocates nothing. */
export interface Routed {
  readonly route: Route
  readonly kline: boolean
}
const VIA_KLINE: Routed = { route: AGRI_FALLBACK, kline: true }
const VIA_QUOTE = new Map<Market, Routed>()

export function routeOf(t: Tracked, now: number, verdicts: PollVerdicts): Routed {
  if (t.market === 'agri' && verdicts.viaKline(t.key, now)) return VIA_KLINE
  let r = VIA_QUOTE.get(t.market)
  if (r === undefined) {
    r = { route: quoteRoute(t.market), kline: false }
    VIA_QUOTE.set(t.market, r)
  }
  return r
}

export function minIntervalFor(
  t: Tracked,
  routed: Routed,
  floorMs: number,
  slow: ReadonlySet<SymbolKey>,
): number {
  if (routed.kline) return KLINE_FALLBACK_MS
  return Math.max(
    floorMs,
    t.background ? BACKGROUND_POLL_MS : 0,
    slow.has(t.key) ? SLOW_POLL_MS : 0,
  )
}

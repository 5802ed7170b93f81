import { parseSymbolKey, type SymbolKey } from '../../shared/markets/market'
import { refusesWhatWasAsked, SYMBOL_400, TickdeskError } from '../errors'
import { klineRoute, quoteRoute } from './market-routes'
import type { QuoteUpdate } from '../quotes/quote-fields'
import type { RestClient } from './rest-client'
import { parseTickerQuotes, quoteFromLatestBar } from './ticker-quote'

/**
 * Asks the service about one symbol with ONE quote call through the shared budget (the RestClient
 * takes its slot from the RateGovernor), before a symbol the catalogue does not know is added.
 * The call is the one the poller would make: the market's quote endpoint, or for agriculture the
 * latest 1m agri/kline bar (spec: Endpoints).
 *   listed      a quote came back: the service knows it
 *   unknown     400 UNKNOWN_SYMBOL / INVALID_SYMBOL, or an answer without it
 *   not-in-plan 403 MARKET_NOT_ENABLED / API_KEY_SCOPE_DENIED: it may exist, the key cannot see it
 *   unchecked   anything else (offline, 429, 5xx, stopped): no verdict now
 */
export type ProbeVerdict =
  | { verdict: 'listed'; update: QuoteUpdate | null }
  | { verdict: 'unknown' | 'not-in-plan' | 'unchecked'; code: string; message: string }

export async function probeSymbol(
  client: RestClient,
  key: SymbolKey,
  now: () => number,
): Promise<ProbeVerdict> {
  const ref = parseSymbolKey(key)
  if (ref === null)
    return { verdict: 'unknown', code: 'INVALID_SYMBOL', message: `${key} is not market:SYMBOL` }
  try {
    // Agriculture is asked on its own kline endpoint, which the spec says serves it; the
    // multi-market quote may or may not (the poller learns which), and the probe has one call.
    const agri = ref.market === 'agri' ? klineRoute('agri') : null
    if (agri !== null) {
      const query = { symbol: ref.symbol, interval: '1', limit: '1' }
      const { data } = await client.get(agri.path, query)
      const update = quoteFromLatestBar(data, ref.market, ref.symbol, now())
      return update ? { verdict: 'listed', update } : noQuote(key)
    }
    const { data } = await client.get(quoteRoute(ref.market).path, { symbols: ref.symbol })
    const updates = parseTickerQuotes(data, ref.market, now()).updates
    // A lone symbol may come back under the service's own spelling, as the multi-market quote
    // allows (spec: Listed endpoints without detail).
    const update =
      updates.find((u) => u.symbol === ref.symbol) ??
      (updates.length === 1 ? updates[0] : undefined)
    return update ? { verdict: 'listed', update: { ...update, symbol: ref.symbol } } : noQuote(key)
  } catch (error) {
    const e =
      error instanceof TickdeskError
        ? error
        : new TickdeskError({ code: 'NETWORK', message: String(error) })
    const code = String(e.code)
    if (SYMBOL_400.has(code)) return { verdict: 'unknown', code, message: e.message }
    if (refusesWhatWasAsked(e)) return { verdict: 'not-in-plan', code, message: e.message }
    return { verdict: 'unchecked', code, message: e.message }
  }
}

function noQuote(key: SymbolKey): ProbeVerdict {
  return {
    verdict: 'unknown',
    code: 'UNKNOWN_SYMBOL',
    message: `The service returned no quote for ${key}`,
  }
}

import { parseSymbolKey, type Market } from '../markets/market'

/**
 * Which symbols a volume alert can watch. The spec gives `volume` in TickerQuote, the quote of
 * crypto spot and USDT-margined futures; the multi-market quote's fields are "not shown", so for
 * its markets volume arrives only if the service happens to send it.
 */
const VOLUME_MARKETS: ReadonlySet<Market> = new Set(['crypto', 'usdt-futures'])

/** Null when the symbol's quotes carry volume; else the sentence the form and the CLI show. */
export function volumeNote(key: string, quoteVolume?: number | null): string | null {
  const ref = parseSymbolKey(key)
  if (ref === null) return null
  if (quoteVolume === null)
    return `${ref.symbol} has no volume from the service: a volume alert on it would never fire`
  if (quoteVolume !== undefined || VOLUME_MARKETS.has(ref.market)) return null
  return `The service may send no volume for ${ref.market} quotes (the spec gives it only for crypto and USDT futures): this alert fires only if volume arrives`
}

import type { QuoteStore } from '../../core/quotes/quote-store'
import type { TrayQuote } from '../host-api'

/** The pinned symbols' prices for the tray's title, tooltip and menu; no price yet reads stale. */
export function trayQuotes(
  pinned: readonly string[],
  quotes: Pick<QuoteStore, 'get'>,
): TrayQuote[] {
  return pinned.map((key) => {
    const q = quotes.get(key)
    return {
      key,
      last: q?.last ?? null,
      changePercent: q?.changePercent ?? null,
      stale: q?.stale ?? true,
    }
  })
}

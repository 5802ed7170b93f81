import { parseSymbolKey, type SymbolKey } from '../../shared/markets/market'
import { sessionAt, type SessionInfo } from '../../shared/markets/market-sessions'
import type { Currency, PositionsFile, PositionsView } from '../../shared/positions/position'
import { fxKeysFor } from '../../shared/positions/position-report'
import type { CurrencyTable } from '../catalogue/instrument-currency'
import { WatchlistBook, type WatchlistState } from './watchlist-book'

/**
 * What the app asks the engine to watch, from the trader's data: every symbol on a list, with an
 * alert or a lot, and the fx: pairs that convert the lots to the base currency (the WatchSet
 * turns this into watches and stream priorities). Also what the page shows of them beside the
 * quotes: the positions book with its currencies and each symbol's market session.
 */
export interface WantedSymbols {
  listed: SymbolKey[]
  alerted: SymbolKey[]
  pinned: readonly string[]
  /** Conversion pairs no row shows: polled once a minute (a minute-old rate is fine for totals). */
  slow: SymbolKey[]
}

export function wantedSymbols(o: {
  lists: WatchlistState
  book: PositionsView
  alerted: SymbolKey[]
  pinned: readonly string[]
}): WantedSymbols {
  const rows = new Set([
    ...WatchlistBook.allSymbols(o.lists),
    ...o.book.lots.map((l) => l.key),
    ...o.alerted,
  ])
  const slow = o.book.fxKeys.filter((k) => !rows.has(k))
  return { listed: [...rows, ...slow], alerted: o.alerted, pinned: o.pinned, slow }
}

/** The book with each lot symbol's quote currency and the fx: keys watched to convert it. */
export function positionsView(
  file: PositionsFile,
  currencies: CurrencyTable,
  knows: (key: SymbolKey) => boolean,
): PositionsView {
  const currencyOf = (key: SymbolKey): Currency | null =>
    currencies.currencyOf(key, file.currencies)
  const quoteCurrencies: Record<string, Currency> = {}
  for (const lot of file.lots) {
    const c = currencyOf(lot.key)
    if (c !== null) quoteCurrencies[lot.key] = c
  }
  const fxKeys = fxKeysFor(file.lots, currencyOf, file.baseCurrency, knows)
  return { ...file, quoteCurrencies, fxKeys }
}

/** Each symbol's market session at `now` (the renderer recomputes at each nextChange). */
export function sessionsAt(
  keys: readonly SymbolKey[],
  now: number,
): Record<SymbolKey, SessionInfo> {
  const out: Record<SymbolKey, SessionInfo> = {}
  for (const key of keys) {
    const ref = parseSymbolKey(key)
    if (ref) out[key] = sessionAt(ref.market, ref.symbol, now)
  }
  return out
}

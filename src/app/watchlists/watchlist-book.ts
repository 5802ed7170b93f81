import { randomUUID } from 'node:crypto'
import { parseSymbolKey, symbolKey } from '../../shared/markets/market'
import { MAX_SYMBOLS_PER_LIST, type Watchlist } from '../../shared/watchlist'
import { TickdeskError } from '../../core/errors'

export interface WatchlistState {
  watchlists: Watchlist[]
  activeId: string | null
}

const MAX_LISTS = 50

/** Why a symbol was not added to a full list. */
export const fullMessage = `At most ${MAX_SYMBOLS_PER_LIST} symbols a list`

function notFound(id: string): TickdeskError {
  return new TickdeskError({ code: 'NOT_FOUND', message: `No watchlist with id ${id}` })
}

/** Normalises `market:SYMBOL` or explains what is wrong with it, in the trader's words. */
export function canonicalKey(input: string): string {
  const ref = parseSymbolKey(input)
  if (!ref) {
    throw new TickdeskError({
      code: 'INVALID_INPUT',
      message: `"${input.slice(0, 40)}" is not a symbol: write market:SYMBOL, e.g. crypto:BTCUSDT or fx:EURUSD`,
    })
  }
  return symbolKey(ref.market, ref.symbol)
}

/**
 * Watchlist editing as pure state transitions: every operation returns a new state or throws a
 * TickdeskError, so an invalid command changes nothing.
 */
export const WatchlistBook = {
  create(state: WatchlistState, name: string): { state: WatchlistState; created: Watchlist } {
    if (state.watchlists.length >= MAX_LISTS) {
      throw new TickdeskError({ code: 'INVALID_INPUT', message: `At most ${MAX_LISTS} watchlists` })
    }
    const created: Watchlist = { id: randomUUID(), name: name.trim(), symbols: [] }
    return { state: { watchlists: [...state.watchlists, created], activeId: created.id }, created }
  },

  rename(state: WatchlistState, id: string, name: string): WatchlistState {
    return update(state, id, (w) => ({ ...w, name: name.trim() }))
  },

  remove(state: WatchlistState, id: string): WatchlistState {
    if (!state.watchlists.some((w) => w.id === id)) throw notFound(id)
    const watchlists = state.watchlists.filter((w) => w.id !== id)
    const activeId = state.activeId === id ? (watchlists[0]?.id ?? null) : state.activeId
    return { watchlists, activeId }
  },

  /** Lists named in `ids` first, in that order (unknown and repeated ids ignored), then the rest. */
  reorder(state: WatchlistState, ids: string[]): WatchlistState {
    const byId = new Map(state.watchlists.map((w) => [w.id, w]))
    const ordered = [...new Set(ids)]
      .map((id) => byId.get(id))
      .filter((w): w is Watchlist => w !== undefined)
    const rest = state.watchlists.filter((w) => !ids.includes(w.id))
    return { ...state, watchlists: [...ordered, ...rest] }
  },

  setActive(state: WatchlistState, id: string): WatchlistState {
    if (!state.watchlists.some((w) => w.id === id)) throw notFound(id)
    return { ...state, activeId: id }
  },

  addSymbol(state: WatchlistState, id: string, input: string): WatchlistState {
    const key = canonicalKey(input)
    return update(state, id, (w) => {
      if (w.symbols.includes(key)) return w
      if (w.symbols.length >= MAX_SYMBOLS_PER_LIST) {
        throw new TickdeskError({
          code: 'INVALID_INPUT',
          message: fullMessage,
        })
      }
      return { ...w, symbols: [...w.symbols, key] }
    })
  },

  /**
   * addSymbol for many keys at once, in order: one copy of the list, not one per key (a paste
   * of 5000). Keys past the cap are returned in `full`, the rest added; nothing throws but an
   * unknown list or a malformed key.
   */
  addSymbols(
    state: WatchlistState,
    id: string,
    inputs: readonly string[],
  ): { state: WatchlistState; full: string[] } {
    const keys = inputs.map(canonicalKey)
    const full: string[] = []
    const next = update(state, id, (w) => {
      const symbols = [...w.symbols]
      const listed = new Set(symbols)
      for (const key of keys) {
        if (listed.has(key)) continue
        if (symbols.length >= MAX_SYMBOLS_PER_LIST) {
          full.push(key)
          continue
        }
        listed.add(key)
        symbols.push(key)
      }
      return { ...w, symbols }
    })
    return { state: next, full }
  },

  removeSymbol(state: WatchlistState, id: string, key: string): WatchlistState {
    return update(state, id, (w) => ({ ...w, symbols: w.symbols.filter((s) => s !== key) }))
  },

  /** A symbol not in the list cannot be moved: NOT_FOUND (a stale row), rather than nothing. */
  moveSymbol(state: WatchlistState, id: string, key: string, toIndex: number): WatchlistState {
    return update(state, id, (w) => {
      const from = w.symbols.indexOf(key)
      if (from < 0)
        throw new TickdeskError({ code: 'NOT_FOUND', message: `${key} is not in ${w.name}` })
      const symbols = w.symbols.filter((s) => s !== key)
      symbols.splice(Math.min(toIndex, symbols.length), 0, key)
      return { ...w, symbols }
    })
  },

  /** Every symbol on any list, once, in list order. */
  allSymbols(state: WatchlistState): string[] {
    return [...new Set(state.watchlists.flatMap((w) => w.symbols))]
  },
}

function update(
  state: WatchlistState,
  id: string,
  fn: (w: Watchlist) => Watchlist,
): WatchlistState {
  let found = false
  const watchlists = state.watchlists.map((w) => {
    if (w.id !== id) return w
    found = true
    return fn(w)
  })
  if (!found) throw notFound(id)
  return { ...state, watchlists }
}

import type { Snapshot } from '../../../shared/bridge'
import { parseSymbolKey, symbolKey } from '../../../shared/markets/market'
import type { Watchlist } from '../../../shared/watchlist'
import { parseWatchlistFile, type WatchlistFileFormat } from '../../../shared/watchlist-file'
import { BridgeError } from '../bridge/bridge-error'

/**
 * The in-memory host's watchlist rules (FakeTickdeskApi), answering as the app service does
 * (test/contract/fake-vs-app.spec.ts holds the two together): unknown list ids are NOT_FOUND,
 * bad symbols INVALID_INPUT, adding a symbol a list holds or removing one it does not changes
 * nothing, moving one it does not hold is NOT_FOUND.
 */
const MAX_LISTS = 50

export function canonicalKey(input: string): string {
  const ref = parseSymbolKey(input)
  if (ref === null) throw new BridgeError('INVALID_INPUT', `"${input}" is not market:SYMBOL`)
  return symbolKey(ref.market, ref.symbol)
}

export function findList(state: Snapshot, id: string): Watchlist {
  const w = state.watchlists.find((x) => x.id === id)
  if (!w) throw new BridgeError('NOT_FOUND', `No watchlist with id ${id}`)
  return w
}

/** New lists become active, as in the app. */
export function addLists(state: Snapshot, lists: Watchlist[]): void {
  if (state.watchlists.length + lists.length > MAX_LISTS)
    throw new BridgeError('INVALID_INPUT', `At most ${MAX_LISTS} watchlists`)
  state.watchlists.push(...lists)
  state.activeWatchlistId = lists[0]?.id ?? state.activeWatchlistId
}

export function reorderLists(state: Snapshot, ids: readonly string[]): void {
  const byId = new Map(state.watchlists.map((w) => [w.id, w]))
  const ordered = [...new Set(ids)].flatMap((id) => byId.get(id) ?? [])
  const rest = state.watchlists.filter((w) => !ids.includes(w.id))
  state.watchlists = [...ordered, ...rest]
}

export function deleteList(state: Snapshot, id: string): void {
  findList(state, id)
  state.watchlists = state.watchlists.filter((w) => w.id !== id)
  if (state.activeWatchlistId === id) state.activeWatchlistId = state.watchlists[0]?.id ?? null
}

export function moveSymbol(list: Watchlist, key: string, toIndex: number): void {
  const from = list.symbols.indexOf(key)
  if (from < 0) throw new BridgeError('NOT_FOUND', `${key} is not in ${list.name}`)
  list.symbols.splice(from, 1)
  list.symbols.splice(Math.min(toIndex, list.symbols.length), 0, key)
}

export function readListFile(
  format: WatchlistFileFormat,
  text: string,
  newId: () => string,
): Watchlist[] {
  const file = parseWatchlistFile(format, text)
  if (!file.ok) throw new BridgeError('INVALID_INPUT', file.message)
  return file.lists.map((l) => ({ id: newId(), name: l.name, symbols: l.symbols }))
}

import type { Watchlist } from '../../../shared/watchlist'

/**
 * The lists of an update, each the object already held when nothing in it changed: a list of
 * 5000 symbols is not re-sorted, re-measured or re-sent to the host because another one changed.
 */
export function keepUnchanged(held: readonly Watchlist[], next: Watchlist[]): Watchlist[] {
  const byId = new Map(held.map((w) => [w.id, w]))
  const same = (a: Watchlist, b: Watchlist): boolean =>
    a.name === b.name &&
    a.symbols.length === b.symbols.length &&
    a.symbols.every((s, i) => s === b.symbols[i])
  const out = next.map((w) => {
    const old = byId.get(w.id)
    return old !== undefined && same(old, w) ? old : w
  })
  return out.length === held.length && out.every((w, i) => w === held[i])
    ? (held as Watchlist[])
    : out
}

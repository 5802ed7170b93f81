import { parseSymbolKey, symbolKey } from '../../../shared/markets/market'
import { MAX_SYMBOLS_PER_LIST, type Watchlist } from '../../../shared/watchlist'

/**
 * Symbols added from the add box and shown before the host has answered: the row appears in the
 * frame of the Enter (the host's answer is a round trip away, and for a symbol it does not know a
 * quote call more), marked pending. The host's answer settles each one: added -> it stays until
 * the host's list holds it (the list event comes before the answer, but IPC does not promise
 * that); not added -> the row goes, and the add box says why. Nothing is kept on the host's
 * behalf: a pending row is never saved, and a list the host sends is the truth under it.
 */
interface Pending {
  readonly listId: string
  readonly key: string
  /** The host said it added it: kept only until its list shows it. */
  readonly added: boolean
}

/* eslint-disable svelte/prefer-svelte-reactivity -- the sets are scratch; what rows react to is `entries`. */
export class PendingAdds {
  private entries = $state.raw<readonly Pending[]>([])

  /**
   * Shows at once the entries that name a symbol exactly (market:SYMBOL), are not in the list yet
   * and fit in it; names and bare codes wait for the host to resolve them. Returns the keys
   * shown, to hand back to settle().
   */
  propose(list: Watchlist, inputs: readonly string[]): string[] {
    const held = new Set(list.symbols)
    for (const e of this.entries) if (e.listId === list.id) held.add(e.key)
    const shown: string[] = []
    for (const input of inputs) {
      const ref = parseSymbolKey(input)
      if (ref === null) continue
      const key = symbolKey(ref.market, ref.symbol)
      if (held.has(key) || held.size >= MAX_SYMBOLS_PER_LIST) continue
      held.add(key)
      shown.push(key)
    }
    if (shown.length > 0)
      this.entries = [
        ...this.entries,
        ...shown.map((key) => ({ listId: list.id, key, added: false })),
      ]
    return shown
  }

  /**
   * The host answered for `keys` (proposed for `list`): those in `added` stay until `current`
   * (the list as now held) shows them, every other one goes. `added` null: the add failed whole.
   */
  settle(
    listId: string,
    keys: readonly string[],
    added: readonly string[] | null,
    current: Watchlist | null,
  ): void {
    if (keys.length === 0) return
    const mine = new Set(keys)
    const kept = new Set(added ?? [])
    const listed = new Set(current?.symbols ?? [])
    this.entries = this.entries.flatMap((e) => {
      if (e.listId !== listId || !mine.has(e.key)) return [e]
      if (!kept.has(e.key) || listed.has(e.key)) return []
      return [{ ...e, added: true }]
    })
  }

  /** A list event from the host: what it shows is no longer pending; what it added and then
   * dropped (another window removed it) is not brought back. */
  seen(lists: readonly Watchlist[]): void {
    if (this.entries.length === 0) return
    const byId = new Map(lists.map((w) => [w.id, w]))
    const next = this.entries.filter((e) => {
      const list = byId.get(e.listId)
      if (list === undefined) return false
      if (e.added) return false
      return !list.symbols.includes(e.key)
    })
    if (next.length !== this.entries.length) this.entries = next
  }

  /** Whether a row is shown ahead of the host's answer. */
  has(listId: string, key: string): boolean {
    return this.entries.some((e) => e.listId === listId && e.key === key && !e.added)
  }

  /** The list with its pending symbols at the end; the list itself when none is pending. */
  overlay(list: Watchlist): Watchlist {
    const extra = this.entries.filter((e) => e.listId === list.id && !list.symbols.includes(e.key))
    if (extra.length === 0) return list
    return { ...list, symbols: [...list.symbols, ...extra.map((e) => e.key)] }
  }
}

import type { SymbolKey } from '../../shared/markets/market'

interface Watch {
  refs: number
  priority: number
  order: number
}

/**
 * The symbols the engine is asked to watch, ref-counted: two panels on one symbol cost one
 * subscription. Each keeps the stream priority it was given and the order it was first watched
 * in (the order polled symbols are listed in; who streams does not depend on it).
 */
export class WatchedSymbols {
  private readonly watches = new Map<SymbolKey, Watch>()
  private order = 0

  /** One more reference; a symbol already watched keeps its priority. */
  add(key: SymbolKey, priority: number): void {
    const w = this.watches.get(key)
    if (w) w.refs += 1
    else this.watches.set(key, { refs: 1, priority, order: this.order++ })
  }

  /** One reference fewer; true when that was the last and the symbol is no longer watched. */
  release(key: SymbolKey): boolean {
    const w = this.watches.get(key)
    if (!w) return false
    w.refs -= 1
    if (w.refs > 0) return false
    this.watches.delete(key)
    return true
  }

  /** Priorities for watched symbols, `fallback` for the rest; true when any changed. */
  setPriorities(priorities: ReadonlyMap<SymbolKey, number>, fallback: number): boolean {
    let changed = false
    for (const [key, w] of this.watches) {
      const p = priorities.get(key) ?? fallback
      if (w.priority !== p) {
        w.priority = p
        changed = true
      }
    }
    return changed
  }

  has(key: SymbolKey): boolean {
    return this.watches.has(key)
  }

  get size(): number {
    return this.watches.size
  }

  /** Every watched symbol with its priority, in the order first watched. */
  ordered(): { key: SymbolKey; priority: number }[] {
    return [...this.watches.entries()]
      .sort((a, b) => a[1].order - b[1].order)
      .map(([key, w]) => ({ key, priority: w.priority }))
  }
}

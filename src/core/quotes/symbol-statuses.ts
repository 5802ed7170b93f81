import type { SymbolKey } from '../../shared/markets/market'
import { SymbolStatusCodeSchema, type SymbolStatus } from '../../shared/quote'

/**
 * Per-symbol problems the trader should see (unknown symbol, not in plan, refused …), from both
 * transports, for watched symbols only; a listener hears each change once.
 */
export class SymbolStatusBook {
  private readonly statuses = new Map<SymbolKey, SymbolStatus>()
  private readonly listeners = new Set<(s: SymbolStatus) => void>()
  /** How many held statuses are not OK: while none are, priced() looks nothing up. */
  private problems = 0

  constructor(private readonly isWatched: (key: SymbolKey) => boolean) {}

  set(status: SymbolStatus): void {
    const prev = this.statuses.get(status.key)
    if (prev && prev.code === status.code && prev.message === status.message) return
    if (!this.isWatched(status.key)) return
    this.problems +=
      (status.code !== 'OK' ? 1 : 0) - (prev !== undefined && prev.code !== 'OK' ? 1 : 0)
    this.statuses.set(status.key, status)
    for (const l of this.listeners) l(status)
  }

  /** A price arrived: whatever was wrong with the symbol is not any more. Hot path: no look-up. */
  priced(key: SymbolKey): void {
    if (this.problems === 0) return
    const status = this.statuses.get(key)
    if (status !== undefined && status.code !== 'OK') this.set({ key, code: 'OK', message: '' })
  }

  /** A stream error naming symbols: the service's code when it is one a row can show. */
  refusedOnStream(keys: SymbolKey[], code: string, message: string): void {
    const parsed = SymbolStatusCodeSchema.safeParse(code)
    for (const key of keys)
      this.set({ key, code: parsed.success ? parsed.data : 'UNKNOWN_SYMBOL', message })
  }

  delete(key: SymbolKey): void {
    const prev = this.statuses.get(key)
    if (prev !== undefined && prev.code !== 'OK') this.problems--
    this.statuses.delete(key)
  }

  all(): SymbolStatus[] {
    return [...this.statuses.values()]
  }

  onChange(listener: (s: SymbolStatus) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

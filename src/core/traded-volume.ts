import type { SymbolKey } from '../shared/market'

/**
 * Quotes carry the day's cumulative volume; a bar built from ticks wants what traded since the
 * previous tick. The held total is updated in place: one look-up per tick (bench/ingest).
 */
export class TradedVolume {
  private readonly held = new Map<SymbolKey, { volume: number }>()

  /** What traded since the last call for this symbol (0 on the first, or when the total fell). */
  since(key: SymbolKey, dayVolume: number | null): number {
    const held = this.held.get(key)
    const volume = dayVolume ?? held?.volume ?? 0
    if (held === undefined) {
      this.held.set(key, { volume })
      return 0
    }
    const traded = Math.max(0, volume - held.volume)
    held.volume = volume
    return traded
  }
}

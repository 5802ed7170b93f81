import type { MarketEngine } from '../../core/engine/engine'
import { watchPriorities } from './watch-priorities'

/** What of the engine the watch set drives. */
export type WatchingEngine = Pick<MarketEngine, 'watch' | 'setPriorities'> &
  Partial<Pick<MarketEngine, 'setSlow'>> & {
    readonly quotes: Pick<MarketEngine['quotes'], 'remove'>
  }

/**
 * What the engine watches: exactly the symbols on any list or with an alert, each with its
 * stream priority (visible rows, then alerted, then pinned: watch-priorities.ts). A symbol that
 * leaves every list and alert is released and its quote dropped; a fresh engine (a feed switch)
 * starts with nothing watched and gets everything on the next sync().
 */
export class WatchSet {
  private readonly unwatch = new Map<string, () => void>()
  private visible: ReadonlySet<string> = new Set()
  private engine: WatchingEngine | null = null

  /** The engine of a new feed: the old one's watches ended with it. */
  use(engine: WatchingEngine): void {
    this.engine = engine
    this.unwatch.clear()
  }

  /** The symbols on screen now; they stream first. Takes effect at the next sync(). */
  setVisible(keys: readonly string[]): void {
    this.visible = new Set(keys)
  }

  sync(wanted: {
    listed: Iterable<string>
    alerted: readonly string[]
    pinned: readonly string[]
    /** Of those, the helpers polled once a minute (FX pairs converting the lots). */
    slow?: readonly string[]
  }): void {
    const engine = this.engine
    if (engine === null) return
    const keys = new Set([...wanted.listed, ...wanted.alerted])
    for (const [key, release] of this.unwatch) {
      if (!keys.has(key)) {
        release()
        this.unwatch.delete(key)
        engine.quotes.remove(key)
      }
    }
    for (const key of keys) if (!this.unwatch.has(key)) this.unwatch.set(key, engine.watch(key))
    engine.setPriorities(
      watchPriorities({
        pinned: wanted.pinned,
        alerted: wanted.alerted,
        visible: this.visible,
        listed: keys,
      }),
    )
    engine.setSlow?.(wanted.slow ?? [])
  }

  has(key: string): boolean {
    return this.unwatch.has(key)
  }
}

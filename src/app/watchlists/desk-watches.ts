import type { SymbolKey } from '../../shared/markets/market'
import { WatchSet, type WatchingEngine } from './watch-set'
import { wantedSymbols, type WantedSymbols } from './wanted-symbols'

/**
 * What the running engine watches, kept in step with the trader's data: the WatchSet fed with
 * wantedSymbols() of the app's state now (lists, lots, alerts, pins), and the rows on screen
 * streamed first. app-service.ts calls sync() after each change it makes.
 */
export class DeskWatches {
  private readonly watches = new WatchSet()
  /** A re-plan is due after the current turn (setVisible). */
  private replanArmed = false
  private closed = false

  constructor(private readonly inputs: () => Parameters<typeof wantedSymbols>[0]) {}

  /** The engine of a new feed: it starts with nothing watched and gets everything now. */
  use(engine: WatchingEngine): void {
    this.watches.use(engine)
    this.sync()
  }

  /**
   * Watch exactly the symbols on a list, with an alert or a lot, and the fx: pairs that convert
   * the lots to the base currency; priorities by visibility, alerts, pins.
   */
  sync(): void {
    this.watches.sync(this.wanted())
  }

  wanted(): WantedSymbols {
    return wantedSymbols(this.inputs())
  }

  /**
   * After a settings change. Of the settings, only the pinned symbols change what is watched: a
   * header click (a grid sort) or a layout change does not re-plan 5000 symbols.
   */
  syncPins(before: readonly string[], after: readonly string[]): void {
    if (before.length !== after.length || before.some((k, i) => k !== after[i])) this.sync()
  }

  has(key: SymbolKey): boolean {
    return this.watches.has(key)
  }

  /**
   * The rows on screen stream first. Re-planned after the command has answered (100 ms and
   * more at 5000 symbols), once for every change of one turn.
   */
  setVisible(keys: readonly string[]): void {
    this.watches.setVisible(keys)
    if (this.replanArmed) return
    this.replanArmed = true
    setImmediate(() => {
      this.replanArmed = false
      if (!this.closed) this.sync()
    })
  }

  close(): void {
    this.closed = true
  }
}

import type { MarketEngine } from '../../core/engine/engine'
import type { Snapshot } from '../../shared/bridge'
import type { Settings } from '../../shared/settings'
import { VERSION } from '../../shared/version'
import type { WatchlistState } from './watchlist-book'

/** What the parts of the app own in the page's first state: alerts, key, notices, book, sessions. */
export type SnapshotParts = Omit<
  Snapshot,
  | 'watchlists'
  | 'activeWatchlistId'
  | 'quotes'
  | 'symbolStatuses'
  | 'status'
  | 'settings'
  | 'version'
>

/**
 * The page's whole first state (getSnapshot): the lists and settings, what the engine holds now,
 * and each part's view. After it, events carry each part's changes (event-hub.ts).
 */
export function deskSnapshot(
  engine: Pick<MarketEngine, 'quotes' | 'symbolStatuses' | 'status'>,
  desk: { lists: WatchlistState; settings: Settings },
  parts: SnapshotParts,
): Snapshot {
  return {
    watchlists: desk.lists.watchlists,
    activeWatchlistId: desk.lists.activeId,
    quotes: engine.quotes.all(),
    symbolStatuses: engine.symbolStatuses(),
    status: engine.status(),
    ...parts,
    settings: desk.settings,
    version: VERSION,
  }
}

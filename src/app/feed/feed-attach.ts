import type { MarketEngine } from '../../core/engine/engine'
import type { SaveScheduler } from '../save-scheduler'
import type { DeskWatches } from '../watchlists/desk-watches'
import { connectFeedEvents } from './feed-events'
import { HeldEngine } from './held-engine'

type EventParts = Omit<Parameters<typeof connectFeedEvents>[1], 'quotesChanged'>

/**
 * Plugs an engine the keyed feed just started into the app: its quotes and bars are saved as its
 * source's own (a held engine's only kept, never written over the real cache), the desk's watches
 * move to it, and its events reach the hub and the alerts. Returns the events' detach.
 */
export function attachFeed(
  engine: MarketEngine,
  source: Parameters<SaveScheduler['useSource']>[1],
  parts: EventParts & { saves: SaveScheduler; watches: DeskWatches },
): () => void {
  const { saves, watches, ...events } = parts
  saves.useSource(engine, source, engine instanceof HeldEngine)
  watches.use(engine)
  return connectFeedEvents(engine, { ...events, quotesChanged: () => saves.quotesChanged() })
}

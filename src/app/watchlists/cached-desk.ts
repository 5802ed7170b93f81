import type { Quote } from '../../shared/quote'
import type { Settings } from '../../shared/settings'
import type { GridColumn, Density } from '../../shared/grid'
import type { WatchlistState } from './watchlist-book'

/**
 * What the host already holds of the active watchlist when it serves the page: its symbols and
 * the last price it knows for each (the quote cache read at start, or what the feed has since).
 * The browser host draws it into the page it sends (src/web/cached-desk-html.ts), so the list
 * shows before the page's script has run; every price in it is marked cached, because the page
 * does not yet receive anything live.
 */
export interface CachedDesk {
  listName: string
  /** The trader's chosen columns and density: the snapshot takes the grid's shape. */
  columns: readonly GridColumn[]
  density: Density
  /** How many symbols the list holds (rows beyond `rows` are not drawn: they are out of view). */
  total: number
  rows: readonly CachedRow[]
}

export interface CachedRow {
  key: string
  /** The held quote; null when the host has none for this symbol (its cells read "—"). */
  quote: Quote | null
}

/** Rows drawn: about a screen (the grid paints at most 40 before it has measured itself). */
export const CACHED_ROWS_MAX = 40

/**
 * The active list with its held prices, or null when there is nothing to show: no active list,
 * an empty one, or not one held price among the rows drawn (no cache: the page shows what it
 * always showed).
 */
export function cachedDesk(
  lists: WatchlistState,
  settings: Pick<Settings, 'grid'>,
  quoteOf: (key: string) => Quote | undefined,
): CachedDesk | null {
  const list = lists.watchlists.find((w) => w.id === lists.activeId) ?? lists.watchlists[0]
  if (list === undefined || list.symbols.length === 0) return null
  const rows = list.symbols
    .slice(0, CACHED_ROWS_MAX)
    .map((key) => ({ key, quote: quoteOf(key) ?? null }))
  if (!rows.some((r) => r.quote !== null && r.quote.last !== null)) return null
  return {
    listName: list.name,
    columns: settings.grid.columns,
    density: settings.grid.density,
    total: list.symbols.length,
    rows,
  }
}

/**
 * The quote cache a start reads (SaveScheduler.startCache), with `tell` given the picture of it
 * as soon as it is in, before the rest of the start (AppServiceOptions.onCachedDesk).
 */
export async function pictureOnRead(
  read: Promise<ReadonlyMap<string, Quote>>,
  state: { lists: WatchlistState; settings: Pick<Settings, 'grid'> },
  tell: ((desk: CachedDesk | null) => void) | undefined,
): Promise<ReadonlyMap<string, Quote>> {
  const seen = await read
  tell?.(cachedDesk(state.lists, state.settings, (key) => seen.get(key)))
  return seen
}

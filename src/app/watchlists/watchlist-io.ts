import { randomUUID } from 'node:crypto'
import { TickdeskError } from '../../core/errors'
import type { Watchlist } from '../../shared/watchlist'
import {
  formatWatchlistFile,
  parseWatchlistFile,
  type LotFromFile,
  type WatchlistFileFormat,
} from '../../shared/watchlist-file'

/** Import and export of watchlists (the file formats: src/shared/watchlist-file.ts). */
export interface ImportResult {
  watchlists: Watchlist[]
  /** The lots the file carried with its lists (checked; the book gives them ids). */
  lots: LotFromFile[]
  skipped: string[]
}

/** New lists, each with a fresh id; an unreadable file is INVALID_INPUT and changes nothing. */
export function importWatchlists(format: WatchlistFileFormat, text: string): ImportResult {
  const file = parseWatchlistFile(format, text)
  if (!file.ok) throw new TickdeskError({ code: 'INVALID_INPUT', message: file.message })
  return {
    watchlists: file.lists.map((l) => ({ id: randomUUID(), name: l.name, symbols: l.symbols })),
    lots: file.lists.flatMap((l) => l.lots),
    skipped: file.skipped,
  }
}

/** The list as a file, with the lots held on its symbols. */
export function exportWatchlist(
  list: Watchlist,
  format: WatchlistFileFormat,
  lots: readonly LotFromFile[] = [],
): string {
  return formatWatchlistFile(list, format, lots)
}

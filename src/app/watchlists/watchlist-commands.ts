import { randomUUID } from 'node:crypto'
import { TickdeskError } from '../../core/errors'
import type { WatchlistAccess } from '../command-context'
import type { PositionAccess } from '../positions/position-commands'
import type { Handlers } from '../command-handler'
import { WatchlistBook } from './watchlist-book'
import { exportWatchlist, importWatchlists } from './watchlist-io'

const MAX_LISTS = 50

/** Watchlist editing (WatchlistBook's pure transitions), import and export. */
export const WATCHLIST_HANDLERS: Handlers<
  | 'createWatchlist'
  | 'renameWatchlist'
  | 'deleteWatchlist'
  | 'reorderWatchlists'
  | 'setActiveWatchlist'
  | 'removeSymbol'
  | 'moveSymbol'
  | 'importWatchlists'
  | 'exportWatchlist',
  WatchlistAccess & Pick<PositionAccess, 'positions' | 'setPositions' | 'now'>
> = {
  createWatchlist: async (app, p) => {
    const { state, created } = WatchlistBook.create(app.lists, p.name)
    await app.setLists(state)
    return created
  },
  renameWatchlist: async (app, p) => {
    await app.setLists(WatchlistBook.rename(app.lists, p.id, p.name))
    return null
  },
  deleteWatchlist: async (app, p) => {
    await app.setLists(WatchlistBook.remove(app.lists, p.id))
    return null
  },
  reorderWatchlists: async (app, p) => {
    await app.setLists(WatchlistBook.reorder(app.lists, p.ids))
    return null
  },
  setActiveWatchlist: async (app, p) => {
    await app.setLists(WatchlistBook.setActive(app.lists, p.id))
    return null
  },
  removeSymbol: async (app, p) => {
    await app.setLists(WatchlistBook.removeSymbol(app.lists, p.id, p.key))
    return null
  },
  moveSymbol: async (app, p) => {
    await app.setLists(WatchlistBook.moveSymbol(app.lists, p.id, p.key, p.toIndex))
    return null
  },
  importWatchlists: async (app, p) => {
    const { watchlists, lots, skipped } = importWatchlists(p.format, p.text)
    if (app.lists.watchlists.length + watchlists.length > MAX_LISTS) {
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message: `Importing these would make more than ${MAX_LISTS} watchlists`,
      })
    }
    await app.setLists({
      watchlists: [...app.lists.watchlists, ...watchlists],
      activeId: watchlists[0]?.id ?? app.lists.activeId,
    })
    if (lots.length > 0) {
      const now = app.now()
      const added = lots.map((l) => ({ ...l, id: randomUUID().slice(0, 8), addedAt: now }))
      await app.setPositions({ ...app.positions, lots: [...app.positions.lots, ...added] })
    }
    if (skipped.length)
      app.addNotice(
        'warning',
        'INVALID_INPUT',
        `Skipped ${skipped.length} unreadable entr${skipped.length === 1 ? 'y' : 'ies'}: ${skipped.slice(0, 5).join(', ')}`,
      )
    return watchlists
  },
  exportWatchlist: (app, p) => {
    const list = app.lists.watchlists.find((w) => w.id === p.id)
    if (!list)
      throw new TickdeskError({ code: 'NOT_FOUND', message: `No watchlist with id ${p.id}` })
    return exportWatchlist(list, p.format, app.positions.lots)
  },
}

import { z } from 'zod'

/**
 * The most symbols one watchlist holds, everywhere it is enforced (the book, the bridge, files):
 * an Enterprise desk's 5000. The grid renders only the rows in view (renderer grid/row-window.ts).
 */
export const MAX_SYMBOLS_PER_LIST = 5000

export const WatchlistSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(64),
  symbols: z.array(z.string()).max(MAX_SYMBOLS_PER_LIST),
})
export type Watchlist = z.infer<typeof WatchlistSchema>

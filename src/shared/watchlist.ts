import { z } from 'zod'

export const WatchlistSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(64),
  symbols: z.array(z.string()).max(500),
})
export type Watchlist = z.infer<typeof WatchlistSchema>

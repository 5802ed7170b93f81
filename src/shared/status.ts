import { z } from 'zod'
import { PlanSchema } from './markets/market'

/**
 * Account-wide state of the feed, as the status bar and `watch --json` show it.
 * connecting: first contact; live: stream open (polling fills the rest); degraded: working with
 * limits (polling only, backoff, some markets blocked); offline: service or network unreachable,
 * values stale; paused: quota or rate pause, waiting for retryAt; stopped: 401 / account-wide 403,
 * nothing is sent until the key or settings change.
 */
export const FeedStateSchema = z.enum([
  'connecting',
  'live',
  'degraded',
  'offline',
  'paused',
  'stopped',
])
export type FeedState = z.infer<typeof FeedStateSchema>

export const StreamStateSchema = z.enum(['idle', 'connecting', 'open', 'reconnecting', 'closed'])
export type StreamState = z.infer<typeof StreamStateSchema>

export const FeedStatusSchema = z.object({
  state: FeedStateSchema,
  /** The service's error code, or UNAUTHORIZED (any 401) or NETWORK (transport errors); null when fine. */
  code: z.string().nullable(),
  message: z.string(),
  /** Epoch ms when the next attempt is due (pause, reconnect); null when nothing is waiting. */
  retryAt: z.number().nullable(),
  stream: z.object({
    state: StreamStateSchema,
    symbols: z.number(),
    cap: z.number(),
  }),
  budget: z.object({
    usedLastMinute: z.number(),
    perMinute: z.number(),
    callsToday: z.number(),
  }),
  plan: PlanSchema,
  demo: z.boolean(),
})
export type FeedStatus = z.infer<typeof FeedStatusSchema>

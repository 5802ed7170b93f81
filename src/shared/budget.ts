import { z } from 'zod'
import { PlanSchema } from './markets/market'

/** Polled symbols refreshing slower than this are called out (README: polled median <= 15 s). */
export const SLOW_POLL_SEC = 15

export const BudgetWarningSchema = z.object({
  /** POLL_SLOW: polling would refresh slower than SLOW_POLL_SEC; MARKET_NOT_IN_PLAN: the key was refused that market. */
  code: z.enum(['POLL_SLOW', 'MARKET_NOT_IN_PLAN']),
  message: z.string(),
})
export type BudgetWarning = z.infer<typeof BudgetWarningSchema>

/**
 * What one watchlist costs on the plan the engine runs on, by the engine's own planning rules
 * (src/core/feed/budget-preview.ts): how many of its symbols stream and how many are polled, how often
 * polled ones refresh, and what polling spends of the per-minute budget (app-wide, since every
 * list's symbols share it). With symbols about to be added, the figures include them.
 */
export const BudgetPreviewSchema = z.object({
  plan: PlanSchema,
  demo: z.boolean(),
  symbols: z.number().int(),
  streamed: z.number().int(),
  polled: z.number().int(),
  /**
   * Polled, but their market is closed now (market sessions): asked every `quietEverySec`, so
   * pollEverySec is the open markets' cadence. Optional: absent means none are quiet.
   */
  quiet: z.number().int().optional(),
  quietEverySec: z.number().optional(),
  /** FX pairs watched to convert the lots to the base currency: asked every `fxEverySec`. */
  fxPairs: z.number().int().optional(),
  fxEverySec: z.number().optional(),
  /** In markets the key was refused: neither streamed nor polled. */
  blocked: z.number().int(),
  pollEverySec: z.number().nullable(),
  requestsPerMinute: z.number(),
  perMinute: z.number(),
  streamUsed: z.number().int(),
  streamCap: z.number().int(),
  warnings: z.array(BudgetWarningSchema),
  /** Why this list's symbols stream or are polled, one sentence a group, largest first. */
  why: z.array(z.string()).optional(),
})
export type BudgetPreview = z.infer<typeof BudgetPreviewSchema>

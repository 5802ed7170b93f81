import { z } from 'zod'

export const AlertConditionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('above'), price: z.number().finite() }),
  z.object({ kind: z.literal('below'), price: z.number().finite() }),
  z.object({ kind: z.literal('crosses'), price: z.number().finite() }),
  /** Change on the day vs prevClose, in percent; positive fires at or above, negative at or below. */
  z.object({ kind: z.literal('dayChangePct'), pct: z.number().finite() }),
  /** Move of at least |pct| percent (either direction) within `minutes`. */
  z.object({
    kind: z.literal('movePct'),
    pct: z.number().finite().positive(),
    minutes: z.number().int().min(1).max(1440),
  }),
])
export type AlertCondition = z.infer<typeof AlertConditionSchema>

export const AlertRepeatSchema = z.enum(['once', 'rearm'])

export const AlertRuleInputSchema = z.object({
  key: z.string(),
  condition: AlertConditionSchema,
  repeat: AlertRepeatSchema.default('once'),
  /** Re-arm only after price moves back this far (percent of the threshold) past it. */
  hysteresisPct: z.number().min(0).max(50).default(0.2),
  cooldownSec: z.number().int().min(0).max(86_400).default(60),
  expiresAt: z.number().nullable().default(null),
  note: z.string().max(200).default(''),
})
export type AlertRuleInput = z.input<typeof AlertRuleInputSchema>

export const AlertRuleSchema = AlertRuleInputSchema.extend({
  id: z.string(),
  createdAt: z.number(),
  enabled: z.boolean(),
})
export type AlertRule = z.infer<typeof AlertRuleSchema>

export const AlertRuleStateSchema = z.object({
  ruleId: z.string(),
  status: z.enum(['armed', 'triggered', 'cooldown', 'expired', 'disabled']),
  lastFiredAt: z.number().nullable(),
  lastPrice: z.number().nullable(),
})
export type AlertRuleState = z.infer<typeof AlertRuleStateSchema>

export const FiredAlertSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  key: z.string(),
  message: z.string(),
  price: z.number(),
  at: z.number(),
  /** Fired on the first fresh data after a gap (sleep, offline): the trader was away. */
  whileAway: z.boolean(),
})
export type FiredAlert = z.infer<typeof FiredAlertSchema>

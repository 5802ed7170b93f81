import { z } from 'zod'
import { IntervalSchema } from '../quote'
import { DrawingIdSchema, IntervalFamilySchema, LineSchema, RangeSchema } from '../drawings/drawing'
import { ServiceRefSchema } from './alert-service'

/** The longest moving average a rule may ask for, in bars (EMA warms up over 3x as many). */
export const MAX_MA_PERIOD = 500

/** The longest snooze, in minutes (the panel, the notification and `tickdesk alerts snooze`). */
export const MAX_SNOOZE_MINUTES = 1440

/** The drawing a rule follows: moved, the rule moves with it; removed, so is the rule. */
export const DrawingRefSchema = z.object({ id: DrawingIdSchema, family: IntervalFamilySchema })

/** A price level: the trader reads this when a level is not a number. */
const level = z.number({ message: 'the price level must be a number' }).finite()

export const AlertConditionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('above'), price: level }),
  z.object({ kind: z.literal('below'), price: level }),
  z.object({ kind: z.literal('crosses'), price: level }),
  /** Change on the day vs prevClose, in percent; positive fires at or above, negative at or below. */
  z.object({ kind: z.literal('dayChangePct'), pct: z.number().finite() }),
  /** Move of at least |pct| percent (either direction) within `minutes`. */
  z.object({
    kind: z.literal('movePct'),
    pct: z.number().finite().positive(),
    minutes: z.number().int().min(1).max(1440),
  }),
  /**
   * At least `amount` traded within `minutes`, from the quotes' day volume (only where the service
   * sends volume: alert-volume.ts).
   */
  z.object({
    kind: z.literal('volume'),
    amount: z.number().finite().positive(),
    minutes: z.number().int().min(1).max(1440),
  }),
  /**
   * Price crosses its `period`-bar simple or exponential moving average on `interval` bars (the
   * bars the app builds or fetches: alert-ma.ts); `direction` up, down or either way.
   */
  z.object({
    kind: z.literal('maCross'),
    ma: z.enum(['sma', 'ema']),
    period: z
      .number({ message: 'the moving-average period must be a number of bars' })
      .int({ message: 'the moving-average period must be a whole number of bars' })
      .min(1, { message: 'the moving-average period must be at least 1 bar' })
      .max(MAX_MA_PERIOD, {
        message: `the moving-average period must be at most ${MAX_MA_PERIOD} bars`,
      }),
    interval: IntervalSchema,
    direction: z.enum(['up', 'down', 'any']).default('any'),
  }),
  /**
   * The quoted spread (ask - bid, spread.ts) at or above `above`, in basis points of the mid or in
   * price. Only where the service sends a bid and an ask: without them the rule waits, never fires.
   */
  z.object({
    kind: z.literal('spread'),
    above: z
      .number({ message: 'the spread must be a number' })
      .finite()
      .positive({ message: 'the spread must be above zero' }),
    unit: z.enum(['bps', 'price']).default('bps'),
  }),
  /** Price enters (or exits) the band between two levels; low must be under high. */
  z
    .object({
      kind: z.literal('channel'),
      low: z.number().finite(),
      high: z.number().finite(),
      on: z.enum(['enter', 'exit']),
    })
    .refine((c) => c.low < c.high, {
      message: "the channel's lower bound must be below its upper bound",
      path: ['low'],
    }),
  /**
   * Price crosses a line the trader drew (a horizontal line, a ray, a trend line), judged against
   * the line's price at each tick's time (drawings/drawing-geometry.ts). Before the rule has seen
   * a price, the side it starts from is the last closed bar of `interval` the app holds.
   */
  z.object({
    kind: z.literal('lineCross'),
    drawing: DrawingRefSchema,
    line: LineSchema,
    direction: z.enum(['up', 'down', 'any']).default('any'),
    interval: IntervalSchema,
  }),
  /** Price enters (or leaves) a range the trader drew, while the range lasts. */
  z.object({
    kind: z.literal('rangeCross'),
    drawing: DrawingRefSchema,
    range: RangeSchema,
    on: z.enum(['enter', 'exit']),
  }),
])
export type AlertCondition = z.infer<typeof AlertConditionSchema>

export const AlertRepeatSchema = z.enum(['once', 'rearm'])

export const AlertRuleInputSchema = z.object({
  /** The symbol (market:SYMBOL); for a watchlist-wide rule `list:<listId>` (alert-list.ts). */
  key: z.string(),
  /**
   * A watchlist-wide rule: the condition applies to every symbol on this list, each firing once
   * per arming on its own; symbols added to or removed from the list are followed.
   */
  listId: z.string().min(1).max(64).optional(),
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
  /**
   * Snoozed (from the toast, the notification or the alerts panel): quiet until then, and armed
   * afresh at that moment, so a rule that fired fires again if its condition still holds.
   */
  snoozedUntil: z.number().nullable().optional(),
  /**
   * The service the rule was made for (alert-service.ts): only a process on it judges the rule
   * and delivers its fires. Absent in rules older than it: they belong to the service the app's
   * settings name (alert-rule-service.ts in src/app/alerts binds them).
   */
  service: ServiceRefSchema.optional(),
})
export type AlertRule = z.infer<typeof AlertRuleSchema>

export const AlertRuleStateSchema = z.object({
  ruleId: z.string(),
  status: z.enum(['armed', 'triggered', 'cooldown', 'snoozed', 'expired', 'disabled']),
  lastFiredAt: z.number().nullable(),
  lastPrice: z.number().nullable(),
  /**
   * The fire journal's sequence number of the fire that last set this state (per data folder,
   * only ever grows): a restart orders the saved state and the journal's by it, not by the wall
   * clock. Absent in files written before it existed.
   */
  seq: z.number().int().nonnegative().optional(),
  /** When lastPrice was received: after a restart, the start of the "while you were away" gap. */
  lastSeenAt: z.number().nullable().default(null),
  /**
   * 'maCross' only: while the interval holds fewer bars than the period (the forming one counted),
   * the average cannot be drawn and the rule cannot fire: "waiting for bars (7 of 20)". Written by
   * the host that evaluates (saved with the states, so `tickdesk alerts list` can say it too);
   * null once the bars are there.
   */
  waitingBars: z
    .object({ have: z.number().int().min(0), need: z.number().int().min(1) })
    .nullable()
    .optional(),
  /**
   * 'mid': the symbol's price, as last seen, is the mid of bid and ask (the service sends no
   * last for it), so the rule watches the mid. Written by the host that evaluates, saved with the
   * states so `tickdesk alerts list` can say it; absent: the last trade (or not seen yet).
   */
  watches: z.literal('mid').optional(),
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
  /**
   * whileAway only: since when the app had no fresh price for the symbol (the last one it saw
   * before a sleep, an outage or the time nothing ran); `at` ends the range.
   */
  awaySince: z.number().nullable().default(null),
  /** The time of the quote that fired it (service time when given). */
  quoteAt: z.number().nullable().default(null),
  /** 'mid': `price` is the mid of bid and ask (the service sends no last for the symbol). */
  priceIs: z.literal('mid').optional(),
  /** Fired in quiet hours: in the history and the tray, but no sound and no notification. */
  quiet: z.boolean().optional(),
  /** Which host fired it: the app, `tickdesk watch`, or the headless `tickdesk alerts run`. */
  firedBy: z.enum(['app', 'watch', 'runner']).default('app'),
  /**
   * Delivered again to a target an earlier attempt may have reached (a crash between announcing
   * and recording it, a webhook retried): same id, so a consumer that has it drops it.
   */
  replayed: z.boolean().optional(),
  /**
   * Handed to a target long after it fired (LATE_AFTER_MS: a target that was away, a folder
   * nobody ran): said so wherever it shows, never announced as news. Per delivery, as `replayed`.
   */
  late: z.boolean().optional(),
  /** Announced without being recorded (the disk was full): a crash can repeat or forget it. */
  notRecorded: z.boolean().optional(),
  /**
   * Targets that never took it and the trader dropped it for (a webhook that gave up): the
   * history's line for what was not delivered. Nothing owed is dropped without it.
   */
  dropped: z
    .array(z.object({ to: z.string(), why: z.string().max(300), at: z.number() }))
    .optional(),
})
export type FiredAlert = z.infer<typeof FiredAlertSchema>

/**
 * Where fired alerts are POSTed (tickdesk alerts webhook add). Only http(s) URLs; the counts are
 * kept by whichever host delivered (the app or `tickdesk alerts run`) and shown in both.
 */
export const WebhookSchema = z.object({
  id: z.string(),
  url: z
    .string()
    .max(2000)
    .refine((u) => /^https?:\/\/[^\s]+$/i.test(u) && URL.canParse(u), {
      message: 'a webhook URL must start with http:// or https://',
    }),
  addedAt: z.number(),
  /** Deliveries that failed (each attempt: timeout, refused, non-2xx). */
  failures: z.number().int().min(0).default(0),
  lastError: z.string().max(300).nullable().default(null),
  lastDeliveredAt: z.number().nullable().default(null),
  /** Each delivery carries an HMAC signature; the secret is in the OS keychain, never here. */
  signed: z.boolean().default(false),
  /** The body's shape: Tickdesk's JSON (absent), or a chat service's own (webhook-formats.ts). */
  format: z.enum(['json', 'slack', 'discord', 'telegram', 'ntfy']).optional(),
  /** Telegram's chat_id (a number, or @channelname) for format telegram. */
  chatId: z
    .string()
    .regex(/^(-?\d{1,20}|@\w{4,64})$/)
    .optional(),
})
export const WEBHOOK_FORMATS = ['json', 'slack', 'discord', 'telegram', 'ntfy'] as const
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number]
export type Webhook = z.infer<typeof WebhookSchema>

/**
 * What a page may know of a webhook: its URL is a bearer secret (Slack's and
 * Discord's path tokens, `?token=`), so it never crosses the bridge; the page shows the host and
 * the delivery record. `.strict()`: a view that carried any other field is refused on the way in.
 */
export const WebhookViewSchema = z
  .object({
    id: z.string(),
    host: z.string().max(300),
    kind: z.string().max(20),
    failures: z.number().int().min(0),
    lastError: z.string().max(300).nullable(),
    lastDeliveredAt: z.number().nullable(),
    signed: z.boolean(),
    /**
     * Present only when the webhook is disabled, with why: a stored URL the policy now refuses
     * (plain http to another host): nothing is sent to it (app/webhooks/webhook-url-policy.ts).
     */
    disabled: z.string().max(300).optional(),
  })
  .strict()
export type WebhookView = z.infer<typeof WebhookViewSchema>

export function webhookView(w: Webhook): WebhookView {
  return {
    id: w.id,
    host: webhookHost(w.url),
    kind: w.format ?? 'json',
    failures: w.failures,
    lastError: w.lastError,
    lastDeliveredAt: w.lastDeliveredAt,
    signed: w.signed,
  }
}

/** The receiver's host, all of a webhook URL that may be shown (CLI and page alike). */
export function webhookHost(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return '?'
  }
}

/** A webhook URL as printed: scheme and host, the rest (path tokens, query) elided. */
export function maskedWebhookUrl(url: string): string {
  try {
    const u = new URL(url)
    const rest = u.pathname !== '/' || u.search !== '' || u.hash !== ''
    return `${u.protocol}//${u.host}${rest ? '/…' : '/'}`
  } catch {
    return '?'
  }
}

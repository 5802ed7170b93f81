import type { Clock, TimerHandle } from '../../core/clock'
import { httpPost } from '../../core/rest/http-get'
import type { FiredAlert, Webhook } from '../../shared/alerts/alert'
import { fireJson, type FireJson } from '../../shared/alerts/fire-json'
import type { AlertTarget } from '../alerts/alert-loop'
import { webhookUrlProblem } from './webhook-url-policy'

/**
 * Fired alerts POSTed to a trader's webhook (a chat bot, a phone push service, their own
 * script): a plain JSON body with the fire id for de-duplication (also the Idempotency-Key
 * header), a timeout per attempt and retries with back-off. A receiver that was down for minutes
 * still gets each fire; one that got a fire but whose answer was lost sees the same id again
 * and drops it. The API key is never in the body, the headers or the log: the body says what
 * fired, nothing about the account.
 */

export const WEBHOOK_TIMEOUT_MS = 5_000
/** Of a receiver's answer, this much is kept (for `webhook test`); the rest is read and dropped. */
export const WEBHOOK_REPLY_KEEP_BYTES = 4096
/** Back-off between attempts: 1 s doubling to 30 s, for up to WEBHOOK_GIVE_UP_MS. */
const FIRST_RETRY_MS = 1_000
const MAX_RETRY_MS = 30_000
/** After this long the fire stays owed in the journal and is tried again at the next start. */
export const WEBHOOK_GIVE_UP_MS = 15 * 60_000

/** The body POSTed: the one public shape of a fire, as `watch --json` prints it. */
export type WebhookBody = FireJson

export function webhookBody(a: FiredAlert): WebhookBody {
  return fireJson(a)
}

/**
 * One POST of a fire's request: its Idempotency-Key is the fire id (a receiver drops a repeat),
 * the signature headers when signed, and the reply kept to WEBHOOK_REPLY_KEEP_BYTES. Deliveries
 * and `alerts webhook test` send through here alike.
 */
export function postWebhook(
  request: { url: URL; headers: Record<string, string>; body: string },
  fireId: string,
  signature: Record<string, string>,
  signal: AbortSignal,
): ReturnType<typeof httpPost> {
  return httpPost(
    request.url,
    {
      ...request.headers,
      'idempotency-key': fireId,
      'user-agent': 'Tickdesk alerts',
      ...signature,
    },
    request.body,
    signal,
    WEBHOOK_REPLY_KEEP_BYTES,
  )
}

/** What a delivery attempt changed, for the webhook's counts on disk and in the app. */
export type WebhookOutcome = { ok: true; at: number } | { ok: false; at: number; error: string }

export interface WebhookTargetOptions {
  webhook: Pick<Webhook, 'id' | 'url'>
  clock: Clock
  onOutcome: (id: string, outcome: WebhookOutcome) => void
  timeoutMs?: number
  giveUpMs?: number
  /** The first back-off (doubling to 30 s); tests shorten it. */
  firstRetryMs?: number
  /** The request in the webhook's format (webhook-formats.ts); none: Tickdesk's JSON to its URL. */
  request?: (alert: FiredAlert) => { url: URL; headers: Record<string, string>; body: string }
  /** Signature headers for a body (webhook-signing.ts), for a webhook that is signed. */
  sign?: (body: string) => Promise<Record<string, string>>
  /**
   * Asked before each attempt: false when this process no longer runs the alerts (its lease was
   * taken while it retried): the new owner delivers what is owed, this one stops.
   */
  mayAttempt?: () => boolean
}

/** The alert loop's target for one webhook: resolves once the receiver answered 2xx. */
export function webhookTarget(opts: WebhookTargetOptions): AlertTarget & { stop(): void } {
  const { webhook, clock } = opts
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS
  const giveUpMs = opts.giveUpMs ?? WEBHOOK_GIVE_UP_MS
  const timers = new Set<TimerHandle>()
  const aborts = new Set<AbortController>()
  let stopped = false

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = clock.setTimeout(() => {
        timers.delete(t)
        resolve()
      }, ms)
      timers.add(t)
    })

  const attempt = async (alert: FiredAlert): Promise<void> => {
    // Policy (https but loopback, no credentials) before any byte leaves: a hand-edited file too.
    const request = opts.request?.(alert) ?? {
      url: new URL(webhook.url),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(webhookBody(alert)),
    }
    const refused = webhookUrlProblem(request.url.href)
    if (refused !== null) throw new Error(refused)
    const { body } = request
    const signature = (await opts.sign?.(body)) ?? {}
    const abort = new AbortController()
    aborts.add(abort)
    const timer = clock.setTimeout(() => abort.abort(new Error('timed out')), timeoutMs)
    let status: number
    try {
      const reply = await postWebhook(request, alert.id, signature, abort.signal)
      status = reply.status
    } catch (e) {
      throw new Error(
        abort.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : errorWords(e),
      )
    } finally {
      clock.clearTimeout(timer)
      aborts.delete(abort)
    }
    if (status >= 300 && status < 400)
      // Following would POST the fire (and any token in its URL) to an address the trader never
      // gave; a receiver that moved says so once, and the trader changes the URL.
      throw new FinalAnswer(
        `HTTP ${status}: the receiver redirects elsewhere; redirects are not followed (give the webhook its new URL)`,
      )
    if (status === 410)
      throw new FinalAnswer(
        'HTTP 410 Gone: the receiver says this webhook no longer exists; not retried (remove it or fix its URL)',
      )
    if (status < 200 || status >= 300) throw new Error(`HTTP ${status}`)
  }

  return {
    name: `webhook:${webhook.id}`,
    async deliver(alert) {
      const started = clock.now()
      let delay = opts.firstRetryMs ?? FIRST_RETRY_MS
      let tries = 0
      for (;;) {
        if (stopped) throw new Error('stopped')
        if (opts.mayAttempt?.() === false)
          throw new Error('another process runs the alerts now; it delivers what is owed')
        try {
          // After a first attempt the receiver may have the fire (a 2xx lost to a timeout or a
          // dropped connection): the same id again, marked replayed.
          await attempt(tries++ === 0 ? alert : { ...alert, replayed: true })
          opts.onOutcome(webhook.id, { ok: true, at: clock.now() })
          return
        } catch (e) {
          const error = (e as Error).message
          opts.onOutcome(webhook.id, { ok: false, at: clock.now(), error })
          if (e instanceof FinalAnswer) throw e
          if (stopped || clock.now() - started + delay > giveUpMs) throw e
        }
        await wait(delay)
        delay = Math.min(delay * 2, MAX_RETRY_MS)
      }
    },
    stop() {
      stopped = true
      for (const t of timers) clock.clearTimeout(t)
      timers.clear()
      for (const a of aborts) a.abort(new Error('stopped'))
    },
  }
}

/** An answer that trying again cannot change (a redirect, 410 Gone): no more attempts this run. */
class FinalAnswer extends Error {}

/** A transport error in words, without the URL (it may carry the receiver's own token). */
function errorWords(e: unknown): string {
  const code = (e as { code?: unknown }).code
  if (code === 'ECONNREFUSED') return 'connection refused'
  if (code === 'ECONNRESET') return 'connection reset'
  if (code === 'ENOTFOUND') return 'host not found'
  return typeof code === 'string' ? code : 'request failed'
}

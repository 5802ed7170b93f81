import type { Clock, TimerHandle } from '../../core/clock'
import type { FiredAlert, Webhook } from '../../shared/alerts/alert'
import { fireJson, type FireJson } from '../../shared/alerts/fire-json'
import type { AlertTarget } from '../alerts/alert-loop'
import { postWebhook, type WebhookRequest } from './webhook-post'
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
/** Back-off between attempts: 1 s doubling to 30 s, for up to WEBHOOK_GIVE_UP_MS. */
const FIRST_RETRY_MS = 1_000
const MAX_RETRY_MS = 30_000
/** After this long the fire stays owed in the journal and is tried again at the next start. */
export const WEBHOOK_GIVE_UP_MS = 15 * 60_000

export { postWebhook, WEBHOOK_REPLY_KEEP_BYTES } from './webhook-post'

/** The body POSTed: the one public shape of a fire, as `watch --json` prints it. */
export type WebhookBody = FireJson

export function webhookBody(a: FiredAlert): WebhookBody {
  return fireJson(a)
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
  request?: (alert: FiredAlert) => WebhookRequest
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
  return new WebhookTarget(opts)
}

/**
 * One webhook's deliveries: deliver() tries a fire until the receiver takes it, answers for
 * good (a redirect, 410) or the give-up time passes; stop() ends every wait and request at once.
 */
class WebhookTarget implements AlertTarget {
  readonly name: string
  private readonly timers = new Set<TimerHandle>()
  private readonly aborts = new Set<AbortController>()
  private stopped = false

  constructor(private readonly opts: WebhookTargetOptions) {
    this.name = `webhook:${opts.webhook.id}`
  }

  async deliver(alert: FiredAlert): Promise<void> {
    const { clock, webhook } = this.opts
    const started = clock.now()
    const giveUpMs = this.opts.giveUpMs ?? WEBHOOK_GIVE_UP_MS
    let delay = this.opts.firstRetryMs ?? FIRST_RETRY_MS
    for (let tries = 0; ; tries++) {
      if (this.stopped) throw new Error('stopped')
      if (this.opts.mayAttempt?.() === false)
        throw new Error('another process runs the alerts now; it delivers what is owed')
      try {
        // After a first attempt the receiver may have the fire (a 2xx lost to a timeout or a
        // dropped connection): the same id again, marked replayed.
        await this.attempt(tries === 0 ? alert : { ...alert, replayed: true })
        this.opts.onOutcome(webhook.id, { ok: true, at: clock.now() })
        return
      } catch (e) {
        this.opts.onOutcome(webhook.id, { ok: false, at: clock.now(), error: (e as Error).message })
        if (e instanceof FinalAnswer) throw e
        if (this.stopped || clock.now() - started + delay > giveUpMs) throw e
      }
      await this.wait(delay)
      delay = Math.min(delay * 2, MAX_RETRY_MS)
    }
  }

  stop(): void {
    this.stopped = true
    for (const t of this.timers) this.opts.clock.clearTimeout(t)
    this.timers.clear()
    for (const a of this.aborts) a.abort(new Error('stopped'))
  }

  /** One POST: the URL policy first (a hand-edited file too), signed when asked, timed out. */
  private async attempt(alert: FiredAlert): Promise<void> {
    const request = this.requestFor(alert)
    const refused = webhookUrlProblem(request.url.href)
    if (refused !== null) throw new Error(refused)
    const signature = (await this.opts.sign?.(request.body)) ?? {}
    judge(await this.post(request, alert.id, signature))
  }

  private requestFor(alert: FiredAlert): WebhookRequest {
    return (
      this.opts.request?.(alert) ?? {
        url: new URL(this.opts.webhook.url),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(webhookBody(alert)),
      }
    )
  }

  /** The receiver's status, or an error in words (without the URL, which may hold a token). */
  private async post(
    request: WebhookRequest,
    fireId: string,
    signature: Record<string, string>,
  ): Promise<number> {
    const { clock } = this.opts
    const timeoutMs = this.opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS
    const abort = new AbortController()
    this.aborts.add(abort)
    const timer = clock.setTimeout(() => abort.abort(new Error('timed out')), timeoutMs)
    try {
      return (await postWebhook(request, fireId, signature, abort.signal)).status
    } catch (e) {
      throw new Error(
        abort.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : errorWords(e),
      )
    } finally {
      clock.clearTimeout(timer)
      this.aborts.delete(abort)
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = this.opts.clock.setTimeout(() => {
        this.timers.delete(t)
        resolve()
      }, ms)
      this.timers.add(t)
    })
  }
}

/** A receiver's status as a delivery's result: 2xx delivered; a redirect or 410 final; else retried. */
function judge(status: number): void {
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

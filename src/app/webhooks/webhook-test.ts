import { randomUUID } from 'node:crypto'
import type { Clock } from '../../core/clock'
import type { FiredAlert, Webhook } from '../../shared/alerts/alert'
import type { WebhookSecrets } from '../secrets/webhook-secrets'
import { webhookRequest } from './webhook-formats'
import { postWebhook } from './webhook-post'
import { WEBHOOK_TIMEOUT_MS } from './webhook-sender'
import { signatureHeaders } from './webhook-signing'
import { webhookUrlProblem } from './webhook-url-policy'

/**
 * `tickdesk alerts webhook test`: one marked test message in the webhook's own format (signed
 * if the webhook is), sent once, with the receiver's status and the start of its answer, so a
 * trader sees at once whether Slack, Discord, Telegram or ntfy took it. Not an alert: nothing is
 * journalled or counted, and no retry.
 */
export interface WebhookTestResult {
  /** The receiver answered 2xx. */
  ok: boolean
  status: number | null
  /** The receiver's answer, cut to `ANSWER_CHARS` on one line; or what went wrong. */
  answer: string
}

export const ANSWER_CHARS = 300

export function testFire(now: number): FiredAlert {
  return {
    id: `test-${randomUUID().slice(0, 8)}`,
    ruleId: 'test',
    key: 'crypto:BTCUSDT',
    message: 'BTCUSDT crossed above 65,000 (a test from tickdesk alerts webhook test)',
    price: 65_000,
    at: now,
    whileAway: false,
    awaySince: null,
    quoteAt: null,
    firedBy: 'runner',
  }
}

export async function testWebhook(
  hook: Webhook,
  opts: { clock: Clock; secrets: WebhookSecrets | null; timeoutMs?: number },
): Promise<WebhookTestResult> {
  const fire = testFire(opts.clock.now())
  const request = webhookRequest(hook, fire, true)
  const refused = webhookUrlProblem(request.url.href)
  if (refused !== null) return { ok: false, status: null, answer: refused }
  let signature: Record<string, string> = {}
  if (hook.signed) {
    const secret = await opts.secrets?.get(hook.id).catch(() => null)
    if (!secret)
      return { ok: false, status: null, answer: 'signing secret not found in the OS keychain' }
    signature = signatureHeaders(secret, request.body, opts.clock.now())
  }
  const abort = new AbortController()
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS
  const timer = opts.clock.setTimeout(() => abort.abort(new Error('timed out')), timeoutMs)
  try {
    const reply = await postWebhook(request, fire.id, signature, abort.signal)
    return { ok: reply.ok, status: reply.status, answer: oneLine(reply.text) }
  } catch (e) {
    const code = (e as { code?: unknown }).code
    const why = abort.signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : typeof code === 'string'
        ? code
        : 'request failed'
    return { ok: false, status: null, answer: why }
  } finally {
    opts.clock.clearTimeout(timer)
  }
}

function oneLine(text: string): string {
  const flat = text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?')
    .trim()
  return flat.length > ANSWER_CHARS ? `${flat.slice(0, ANSWER_CHARS - 1)}…` : flat
}

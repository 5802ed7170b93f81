import { webhookView, type Webhook, type WebhookView } from '../../shared/alerts/alert'
import { urlProblem } from '../../shared/security/url-policy'

/**
 * Where a webhook may point: the one URL policy (shared/url-policy.ts), so the alert and the
 * URL's own token cross the network encrypted, plain http only to this machine, and no
 * user:password@ part. Checked when a webhook is added and again before each delivery, so a
 * webhooks.json edited by hand cannot route around it.
 */
export function webhookUrlProblem(raw: string): string | null {
  return urlProblem(raw, 'webhook')
}

/** The words for a stored webhook that plain http to another host would send in clear. */
export const PLAIN_HTTP_DISABLED =
  'plain http to a remote host is no longer allowed; re-add it with https'

/**
 * Why a webhook already in webhooks.json is disabled, or null when it may be used. A file from
 * before the policy (or edited by hand) keeps such a webhook, never deletes it: it is shown
 * disabled with the reason, nothing is sent to it, and what fires stays owed to it, undelivered
 * and listed, until the trader re-adds it with https and drops or retries those fires.
 */
export function storedWebhookRefusal(url: string): string | null {
  const problem = webhookUrlProblem(url)
  if (problem === null) return null
  let parsed: URL | null = null
  try {
    parsed = new URL(url)
  } catch {
    return `${problem}; re-add it`
  }
  if (parsed.username !== '' || parsed.password !== '')
    return 'a user name or password in the URL is no longer allowed; re-add it without them (use signing)'
  return parsed.protocol === 'http:' ? PLAIN_HTTP_DISABLED : `${problem}; re-add it`
}

/** What a page or the CLI may show of a stored webhook: its view, marked when it is disabled. */
export function storedWebhookView(hook: Webhook): WebhookView {
  const disabled = storedWebhookRefusal(hook.url)
  return disabled === null ? webhookView(hook) : { ...webhookView(hook), disabled }
}

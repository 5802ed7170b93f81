import { isIP } from 'node:net'
import { webhookView, type Webhook, type WebhookView } from '../../shared/alerts/alert'

/**
 * Where a webhook may point (issue 38, finding 3): https, so the alert and the URL's own token
 * cross the network encrypted; plain http only to this machine (a local relay or script). No
 * user:password@ part: credentials in a URL end up in files, logs and process lists (the base
 * URL refuses them too). Checked when a webhook is added and again before each delivery, so a
 * webhooks.json edited by hand cannot route around it.
 */
export function webhookUrlProblem(raw: string): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'not a URL'
  }
  if (url.username !== '' || url.password !== '')
    return 'a webhook URL must not hold a user name or password (use a token the service issues, or signing)'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return null
    return 'a webhook URL must use https:// (plain http:// only to this machine: 127.0.0.1, ::1, localhost)'
  }
  return 'a webhook URL must start with https://'
}

/** 127.0.0.0/8, ::1 or localhost: never a hop on the network. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1'
  return false
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

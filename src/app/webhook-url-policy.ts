import { isIP } from 'node:net'

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

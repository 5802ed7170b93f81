/**
 * The one rule for every address Tickdesk sends something to: the market-data service (its base
 * URL and its stream) and the trader's webhooks, wherever the address comes from (Settings, the
 * environment, a command-line flag, a file in the data folder).
 *
 *   - encrypted: https:// (wss:// for the stream), so the key, the prices and an alert's words
 *     cross the network unreadable;
 *   - plain http:// (ws://) only to this machine: 127.0.0.0/8, ::1, localhost (a local service,
 *     relay or script, and demo mode's simulator), never a hop on the network;
 *   - no user name or password in the URL: credentials there end up in files, logs, process lists
 *     and the bridge (a key typed into the wrong field would);
 *   - nothing but the URL itself: no whitespace or control characters, at most 2000 characters.
 *
 * urlProblem() says why an address is refused, in words a trader can act on; null: allowed.
 */

/** What the address is for: the words say which field or flag to fix. */
export type UrlUse = 'service' | 'stream' | 'webhook'

const WHAT: Record<UrlUse, string> = {
  service: 'the base URL',
  stream: 'the stream URL',
  webhook: 'a webhook URL',
}

/** Where the secret a user name or password would carry goes instead. */
const CREDENTIALS_INSTEAD: Record<UrlUse, string> = {
  service: 'the API key goes in its own field',
  stream: 'the API key goes in its own field',
  webhook: 'use a token the service issues, or signing',
}

/** The encrypted scheme and the plain one allowed only to loopback, per use. */
const SCHEMES: Record<UrlUse, { secure: string; plain: string }> = {
  service: { secure: 'https:', plain: 'http:' },
  stream: { secure: 'wss:', plain: 'ws:' },
  webhook: { secure: 'https:', plain: 'http:' },
}

export const MAX_URL_LENGTH = 2000

/** Why `raw` may not be used for `use`, or null when it may. */
export function urlProblem(raw: string, use: UrlUse): string | null {
  const what = WHAT[use]
  const { secure, plain } = SCHEMES[use]
  if (raw.length > MAX_URL_LENGTH) return `${what} is longer than ${MAX_URL_LENGTH} characters`
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(raw))
    return `${what} must not hold spaces or control characters`
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return `${what} is not a URL`
  }
  if (url.username !== '' || url.password !== '')
    return `${what} must not hold a user name or password (${CREDENTIALS_INSTEAD[use]})`
  // http(s) and ws(s) URLs always name a host (the URL parser refuses one without).
  if (url.protocol === secure) return null
  const secureWord = `${secure.slice(0, -1)}://`
  if (url.protocol === plain)
    return isLoopbackHost(url.hostname)
      ? null
      : `${what} must use ${secureWord} (plain ${plain.slice(0, -1)}:// only to this machine: 127.0.0.1, ::1, localhost)`
  return `${what} must start with ${secureWord}`
}

/** Whether `raw` may be used for `use` (urlProblem says why not). */
export function urlAllowed(raw: string, use: UrlUse): boolean {
  return urlProblem(raw, use) === null
}

/**
 * 127.0.0.0/8, ::1 or localhost: never a hop on the network. Takes a URL's hostname, which the
 * URL parser has already normalised (127.1 and 0x7f.0.0.1 read 127.0.0.1, [::1] keeps its
 * brackets). Anything else, localhost.example and ::ffff:127.0.0.1 included, is not loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true
  const quad = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  return quad !== null && quad.slice(1).every((part) => Number(part) <= 255)
}

import type { IncomingMessage } from 'node:http'

/**
 * The browser host's gate. It binds 127.0.0.1 only, but any web page the user visits can still
 * reach loopback, so every request must name this host in Host (defeats DNS rebinding), come
 * from no other Origin (the bridge socket must name ours), and carry this host's session cookie,
 * which only a visit with a one-time launch code (launch-codes.ts) sets.
 */

/**
 * The session cookie, named per port: cookies are per host, not per port, so two Tickdesks (or a
 * stale one) on 127.0.0.1 never overwrite or answer for each other's.
 */
export function sessionCookie(port: number): string {
  return `tickdesk_session_${port}`
}

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`])
}

export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host
  return typeof host === 'string' && allowedHosts(port).has(host.toLowerCase())
}

/** A missing Origin is allowed for plain GETs (direct navigation); the bridge requires ours. */
export function originAllowed(req: IncomingMessage, port: number, required: boolean): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return !required
  return [...allowedHosts(port)].some((h) => origin === `http://${h}`)
}

/** The session cookie's value, or null when the request carries none for this port. */
export function requestSession(req: IncomingMessage, port: number): string | null {
  const header = req.headers.cookie
  if (!header) return null
  const wanted = sessionCookie(port)
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === wanted) return rest.join('=')
  }
  return null
}

/** The launch code a request's address carries (?token=), or null. */
export function requestCode(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('token')
}

/**
 * The address without its code: where a visit that brought one is sent on once the session
 * cookie is set, so the code leaves the address bar and the history.
 */
export function withoutCode(rawUrl: string): string {
  const url = new URL(rawUrl, 'http://127.0.0.1')
  url.searchParams.delete('token')
  return `${url.pathname}${url.search}`
}

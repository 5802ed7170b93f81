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

/**
 * The Set-Cookie value that opens a session: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it), for every path of this host.
 */
export function sessionSetCookie(port: number, session: string): string {
  return `${sessionCookie(port)}=${session}; HttpOnly; SameSite=Strict; Path=/`
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

/** A request's address, read against this host (a request line carries only path and query). */
function requestUrl(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', 'http://127.0.0.1')
}

/** The path a request asks for, without its query (and its launch code). */
export function requestPath(req: IncomingMessage): string {
  return requestUrl(req).pathname
}

/** The launch code a request's address carries (?token=), or null. */
export function requestCode(req: IncomingMessage): string | null {
  return requestUrl(req).searchParams.get('token')
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

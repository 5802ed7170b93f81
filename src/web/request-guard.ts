import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/**
 * The browser host's gate. It binds 127.0.0.1 only, but any web page the user visits can still
 * reach loopback, so every request must carry the per-launch token (query or cookie), name this
 * host in Host (defeats DNS rebinding) and, for the bridge socket, come from our own Origin.
 */
/**
 * The cookie that carries the token once the tokened address was opened, named per port: cookies
 * are per host, not per port, so two Tickdesks (or a stale one) on 127.0.0.1 never overwrite or
 * answer for each other's (issue 38, finding 7).
 */
export function tokenCookie(port: number): string {
  return `tickdesk_token_${port}`
}

export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
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

function cookieToken(req: IncomingMessage, port: number): string | null {
  const header = req.headers.cookie
  if (!header) return null
  const wanted = tokenCookie(port)
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === wanted) return rest.join('=')
  }
  return null
}

export function requestToken(
  req: IncomingMessage,
  port: number,
): {
  fromQuery: string | null
  fromCookie: string | null
} {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  return { fromQuery: url.searchParams.get('token'), fromCookie: cookieToken(req, port) }
}

export function tokenAllowed(req: IncomingMessage, token: string, port: number): boolean {
  const { fromQuery, fromCookie } = requestToken(req, port)
  return [fromQuery, fromCookie].some((t) => t !== null && tokensEqual(t, token))
}

/**
 * The address without its token: where a navigation that brought the token is sent on once the
 * cookie is set, so the token leaves the address bar and the history (finding 7).
 */
export function withoutToken(rawUrl: string): string {
  const url = new URL(rawUrl, 'http://127.0.0.1')
  url.searchParams.delete('token')
  return `${url.pathname}${url.search}`
}

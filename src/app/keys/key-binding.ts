/**
 * The API key is bound to the service it was entered for: a page that changes the base URL must
 * not be able to send a stored key to a host of its choosing. The binding is the URL's origin
 * (scheme, host and port: http vs https and another port on the same host are other services),
 * kept with the key in the host's secret store, so it travels with the key and no page-writable
 * file can move it.
 *
 * A KeyRing holds one key per origin: entering a key for one service never overwrites or
 * clears another's. `latest` is the origin of the key entered or moved last: the one offered to
 * a service that has none (key-move.ts asks the trader outside the page before it goes there).
 *
 * Stored forms, read back in this order:
 *   {"tickdeskKeys":2,"keys":[{"origin":"https://a.example","key":"..."},...]}  (latest last)
 *   {"tickdeskKey":1,"key":"...","origin":"https://a.example"}                    one bound key
 *   a bare string: a key saved before any binding; bound once, to the origin the host trusts
 *   (given in the environment or on the command line, never read from a page-writable file),
 *   else to no service, from where only a confirmation outside the page moves it.
 */

/** An origin key ('' for a key entered with no service set: demo mode). */
export type KeyOrigin = string

/** The origin a key entered for "no service" (demo mode) is kept under; it is sent nowhere. */
export const NO_SERVICE: KeyOrigin = ''

/** The origin a key may be sent to, or null for no service or a URL that is not http(s). */
export function serviceOrigin(baseUrl: string | undefined | null): string | null {
  try {
    const url = new URL(baseUrl ?? '')
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    return url.origin
  } catch {
    return null
  }
}

/** The origin in full (scheme, host and port, the default port written out), for messages. */
export function originWords(origin: KeyOrigin | null): string {
  if (origin === null || origin === NO_SERVICE) return 'no service (demo mode)'
  try {
    const url = new URL(origin)
    const port = url.port || (url.protocol === 'https:' ? '443' : '80')
    return `${url.protocol}//${url.hostname}:${port}`
  } catch {
    return origin
  }
}

export interface KeyRing {
  /** origin -> key, one key per origin, in the order entered or moved (latest last). */
  readonly keys: ReadonlyMap<KeyOrigin, string>
}

export const EMPTY_RING: KeyRing = { keys: new Map() }

/** The origin of the key entered or moved last, or null when the ring is empty. */
export function latestOrigin(ring: KeyRing): KeyOrigin | null {
  let last: KeyOrigin | null = null
  for (const origin of ring.keys.keys()) last = origin
  return last
}

/** The key for this base URL: only where the URL's origin is one a key was entered for. */
export function keyForUrl(ring: KeyRing, baseUrl: string | undefined): string | null {
  const origin = serviceOrigin(baseUrl)
  return origin === null ? null : (ring.keys.get(origin) ?? null)
}

/** The ring with `key` for `origin` (replacing only that origin's key), `origin` now latest. */
export function withKey(ring: KeyRing, origin: KeyOrigin, key: string): KeyRing {
  const keys = new Map(ring.keys)
  keys.delete(origin)
  keys.set(origin, key)
  return { keys }
}

/** The ring without `origin`'s key; every other origin's key stays. */
export function withoutKey(ring: KeyRing, origin: KeyOrigin): KeyRing {
  const keys = new Map(ring.keys)
  keys.delete(origin)
  return { keys }
}

/**
 * The ring with `from`'s key moved to `to` (the trader confirmed exactly that move), or the ring
 * as it is when `from` holds no key any more.
 */
export function movedKey(ring: KeyRing, from: KeyOrigin, to: KeyOrigin): KeyRing {
  const key = ring.keys.get(from)
  if (key === undefined) return ring
  return withKey(withoutKey(ring, from), to, key)
}

export function packRing(ring: KeyRing): string {
  const keys = [...ring.keys].map(([origin, key]) => ({ origin, key }))
  return JSON.stringify({ tickdeskKeys: 2, keys })
}

/** The stored value read back; `bare` when it is a key from before the binding. */
export function unpackRing(stored: string): { ring: KeyRing; bare: string | null } {
  const parsed = parseStored(stored)
  if (parsed === null) return { ring: EMPTY_RING, bare: stored }
  return { ring: parsed, bare: null }
}

function parseStored(stored: string): KeyRing | null {
  let v: Record<string, unknown> | null
  try {
    v = JSON.parse(stored) as Record<string, unknown> | null
  } catch {
    return null // not ours: a bare key (one that happens to start with a brace too)
  }
  if (v === null || typeof v !== 'object') return null
  if (v['tickdeskKey'] === 1 && typeof v['key'] === 'string') {
    const origin = typeof v['origin'] === 'string' ? v['origin'] : NO_SERVICE
    return { keys: new Map([[origin, v['key']]]) }
  }
  if (v['tickdeskKeys'] !== 2 || !Array.isArray(v['keys'])) return null
  const keys = new Map<KeyOrigin, string>()
  for (const entry of v['keys'] as unknown[]) {
    const e = entry as { origin?: unknown; key?: unknown } | null
    if (typeof e?.origin === 'string' && typeof e.key === 'string' && e.key !== '')
      keys.set(e.origin, e.key)
  }
  return { keys }
}

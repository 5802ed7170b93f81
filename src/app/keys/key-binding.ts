/**
 * The API key is bound to the service it was entered for (issue 38, finding 1): a page that
 * changes the base URL must not be able to send the stored key to a host of its choosing. The
 * binding is the URL's origin (scheme, host and port: http vs https and another port on the same
 * host are other services), kept with the key in the host's secret store, so it travels with the
 * key and no page-writable file can move it.
 *
 * Stored form: `{"tickdeskKey":1,"key":"...","origin":"https://api.example.com"}`. A plain string
 * is a key saved before the binding existed: it is bound, once, to the service in use at load.
 */

export interface BoundKey {
  key: string
  /** The origin the key was entered for; null when it was entered with no service set (demo). */
  origin: string | null
}

/** The origin a key may be sent to, or null for no service ('' = demo) or a URL that is none. */
export function serviceOrigin(baseUrl: string | undefined | null): string | null {
  if (!baseUrl) return null
  try {
    const url = new URL(baseUrl)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    return url.origin
  } catch {
    return null
  }
}

/** The host (with a port if any) a trader recognises, for messages. */
export function originHost(origin: string | null): string {
  if (origin === null) return 'no service (demo mode)'
  try {
    return new URL(origin).host
  } catch {
    return origin
  }
}

export function packKey(bound: BoundKey): string {
  return JSON.stringify({ tickdeskKey: 1, key: bound.key, origin: bound.origin })
}

/** The stored value read back; `legacy` when it predates the binding (a bare key). */
export function unpackKey(stored: string): BoundKey & { legacy: boolean } {
  if (stored.startsWith('{')) {
    try {
      const v = JSON.parse(stored) as Record<string, unknown>
      if (v['tickdeskKey'] === 1 && typeof v['key'] === 'string')
        return {
          key: v['key'],
          origin: typeof v['origin'] === 'string' ? v['origin'] : null,
          legacy: false,
        }
    } catch {
      // not ours: a key that happens to start with a brace
    }
  }
  return { key: stored, origin: null, legacy: true }
}

/** The key for this base URL: only where the URL's origin is the one the key was entered for. */
export function keyForUrl(bound: BoundKey | null, baseUrl: string | undefined): string | null {
  if (bound === null) return null
  const origin = serviceOrigin(baseUrl)
  return origin !== null && origin === bound.origin ? bound.key : null
}

import { createHash } from 'node:crypto'

/** Where prices came from: the demo simulator, or the service at `baseUrl`. */
export interface FeedSource {
  demo: boolean
  baseUrl: string
}

/**
 * The name a data source's files carry: `demo`, or the service's host and a hash of its URL.
 * Bars and cached quotes are kept per source, so prices the demo simulator made never stand in
 * a live service's rows or charts (nor one service's in another's).
 */
export function feedSourceId(source: FeedSource): string {
  if (source.demo) return 'demo'
  let host = 'service'
  let norm = source.baseUrl.trim().toLowerCase()
  try {
    const url = new URL(source.baseUrl)
    host = url.host.toLowerCase()
    norm = `${url.protocol}//${host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase()
  } catch {
    // Not a URL: named by its hash alone.
  }
  const slug = host.replace(/[^a-z0-9.-]+/g, '_').slice(0, 48)
  return `${slug}-${createHash('sha256').update(norm).digest('hex').slice(0, 10)}`
}

import type { IncomingMessage } from 'node:http'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'

/**
 * One HTTP exchange over node:http(s), the reply read as text: the engine's GETs (http-get.ts)
 * and the alert webhooks' POSTs (app/webhooks/webhook-post.ts) both go through here. Not fetch:
 * the first fetch loads undici and compiles its WebAssembly HTTP parser, about 16 MB of resident
 * memory in a host that otherwise sits near 45 MB all day (docs/bench.md: host memory at rest).
 * Node's global agent keeps connections alive, as fetch did. No Accept-Encoding is sent, so
 * bodies come uncompressed.
 */
export interface HttpReply {
  status: number
  ok: boolean
  /** A response header, or null; repeated headers joined with ", ". */
  header(name: string): string | null
  text: string
}

/**
 * A kept-alive connection that died while idle (the service closed it, or the machine slept and
 * the network went away) fails the next request sent on it before any answer. The service never
 * read that request, so an idempotent one may go again at once on a new connection (as Node's
 * http docs advise, `request.reusedSocket`).
 */
export class StaleConnectionError extends Error {
  readonly code: string | undefined
  constructor(cause: NodeJS.ErrnoException) {
    super(cause.message, { cause })
    this.name = 'StaleConnectionError'
    this.code = cause.code
  }
}

/** A quote batch is a few kB; anything this large is not the service. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024

/**
 * `method` to `url` with `headers` (and `body`), aborted by `signal`. The reply is read whole
 * up to MAX_BODY_BYTES; with `keepBytes` only that much is kept and the rest is read and dropped
 * (a webhook receiver's answer is a status and a line, not 16 MB held in memory).
 */
export function httpSend(
  method: 'GET' | 'POST',
  url: URL,
  headers: Record<string, string>,
  body: string | null,
  signal: AbortSignal,
  keepBytes?: number,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const send =
      url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : null
    if (send === null) {
      reject(new Error(`unsupported protocol ${url.protocol}`))
      return
    }
    let answered = false
    const req = send(url, { method, headers, signal }, (res) => {
      answered = true
      const chunks: Buffer[] = []
      let size = 0
      let ended = false
      res.on('data', (chunk: Buffer) => {
        const before = size
        size += chunk.length
        if (keepBytes !== undefined) {
          if (before < keepBytes) chunks.push(chunk.subarray(0, keepBytes - before))
        } else if (size > MAX_BODY_BYTES) req.destroy(new Error('response body over 16 MB'))
        else chunks.push(chunk)
      })
      res.once('end', () => {
        ended = true
        const status = res.statusCode ?? 0
        resolve({
          status,
          ok: status >= 200 && status < 300,
          header: (name) => headerValue(res, name),
          text: Buffer.concat(chunks).toString('utf8'),
        })
      })
      res.once('error', reject)
      res.once('close', () => {
        if (!ended) reject(new Error('connection closed before the response ended'))
      })
    })
    req.once('error', (error: NodeJS.ErrnoException) => {
      const stale =
        req.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.code === 'EPIPE')
      reject(stale ? new StaleConnectionError(error) : error)
    })
    req.end(body ?? undefined)
  })
}

function headerValue(res: IncomingMessage, name: string): string | null {
  const v = res.headers[name.toLowerCase()]
  if (v === undefined) return null
  return Array.isArray(v) ? v.join(', ') : v
}

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request as the loopback test service saw it. */
export interface SeenRequest {
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
}

export interface TestReply {
  status?: number
  /** JSON-encoded as the body. */
  body?: unknown
  /** Sent verbatim instead of body (non-JSON answers). */
  raw?: string
  headers?: Record<string, string>
  /** Never answer (timeouts). */
  hang?: boolean
}

export interface RestTestServer {
  url: string
  server: Server
  requests: SeenRequest[]
  close(): Promise<void>
}

export function ok(data: unknown): TestReply {
  return { status: 200, body: { succ: true, data } }
}

export function fail(
  status: number,
  code: string,
  msg = code,
  headers?: Record<string, string>,
): TestReply {
  return { status, body: { succ: false, code, msg }, ...(headers ? { headers } : {}) }
}

/** A real HTTP server on 127.0.0.1, port 0, answering with the test's handler (no mocked fetch). */
export async function startRestServer(
  handler: (req: SeenRequest) => TestReply,
): Promise<RestTestServer> {
  const requests: SeenRequest[] = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const seen = { path: url.pathname, query: url.searchParams, headers: req.headers }
    requests.push(seen)
    const reply = handler(seen)
    if (reply.hang) return
    res.writeHead(reply.status ?? 200, {
      'content-type': reply.raw === undefined ? 'application/json' : 'text/html',
      'x-request-id': String(req.headers['x-request-id'] ?? 'srv-1'),
      ...reply.headers,
    })
    res.end(reply.raw ?? JSON.stringify(reply.body ?? null))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Lets real I/O run between fake-clock steps until `done()` holds (bounded, never a fixed sleep). */
export async function until(done: () => boolean, maxTurns = 500): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (done()) return
    await new Promise((r) => setTimeout(r, 1))
  }
  throw new Error('condition not reached')
}

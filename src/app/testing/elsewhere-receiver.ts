import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * "Another host" for the key's host binding: a server on 127.0.0.2 (the
 * simulator is on 127.0.0.1, so the origins differ) that records every request's headers, REST
 * and the stream's upgrade alike, and answers 503.
 */
export interface Receiver {
  url: string
  seen: IncomingHttpHeaders[]
  close(): Promise<void>
}

export async function listenElsewhere(): Promise<Receiver> {
  const seen: IncomingHttpHeaders[] = []
  const server: Server = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(503).end()
  })
  server.on('upgrade', (req, socket) => {
    seen.push(req.headers)
    socket.destroy()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.2', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.2:${port}`,
    seen,
    close: () => new Promise((r) => server.close(() => r())),
  }
}

/** Every X-API-Key the receiver was sent. */
export const keysSeen = (r: Receiver): unknown[] =>
  r.seen.map((h) => h['x-api-key']).filter((k) => k !== undefined)

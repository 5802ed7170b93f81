import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'

/**
 * A loopback HTTP proxy in front of the simulator that holds every request sent with one API key
 * until the test releases it: a request kept in flight across a key change, on demand, with no
 * timing to tune. Other requests pass straight through.
 */
export interface HoldingProxy {
  url: string
  /** Requests held so far (released ones included). */
  held(): number
  /** Sends every held request on to the service; its answer goes back to the client as is. */
  release(): void
  close(): Promise<void>
}

export async function startHoldingProxy(target: string, holdKey: string): Promise<HoldingProxy> {
  const waiting: Array<() => void> = []
  let held = 0
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const up = request(new URL(req.url ?? '/', target), {
      method: req.method,
      headers: req.headers,
    })
    up.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    up.on('error', () => res.destroy())
    up.end(body)
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.headers['x-api-key'] !== holdKey) return forward(req, res, body)
      held += 1
      waiting.push(() => forward(req, res, body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    held: () => held,
    release: () => {
      for (const send of waiting.splice(0)) send()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

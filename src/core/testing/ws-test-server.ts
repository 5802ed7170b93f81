import { createServer } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import type { WebSocket } from 'ws'

/** A real loopback WebSocket server for specs: records upgrades, connections and messages. */
export interface ServerConnection {
  socket: WebSocket
  headers: IncomingHttpHeaders
  /** Text messages received, JSON-parsed when possible. */
  messages: unknown[]
}

export interface Rejection {
  status: number
  headers?: Record<string, string>
  body?: string
}

export interface TestWsServer {
  url: string
  port: number
  /** Every upgrade request seen, accepted or not. */
  upgrades: IncomingHttpHeaders[]
  connections: ServerConnection[]
  /** Decides per upgrade: a Rejection answers with that HTTP status instead of 101. */
  reject: ((headers: IncomingHttpHeaders) => Rejection | null) | null
  onConnection: ((conn: ServerConnection) => void) | null
  close(): Promise<void>
}

export async function startTestWsServer(
  opts: { autoPong?: boolean; port?: number } = {},
): Promise<TestWsServer> {
  const http = createServer((_req, res) => res.writeHead(404).end())
  const wss = new WebSocketServer({ noServer: true, autoPong: opts.autoPong ?? true })
  const server: TestWsServer = {
    url: '',
    port: 0,
    upgrades: [],
    connections: [],
    reject: null,
    onConnection: null,
    close: async () => {
      for (const c of wss.clients) c.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
  http.on('upgrade', (req, socket, head) => {
    server.upgrades.push(req.headers)
    const rejection = server.reject?.(req.headers) ?? null
    if (rejection !== null) {
      const body = rejection.body ?? ''
      const lines = [
        `HTTP/1.1 ${rejection.status} Rejected`,
        `Content-Length: ${Buffer.byteLength(body)}`,
      ]
      for (const [k, v] of Object.entries(rejection.headers ?? {})) lines.push(`${k}: ${v}`)
      socket.end(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n${body}`)
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: ServerConnection = { socket: ws, headers: req.headers, messages: [] }
      ws.on('message', (data) => {
        const text = data.toString()
        try {
          conn.messages.push(JSON.parse(text))
        } catch {
          conn.messages.push(text)
        }
      })
      server.connections.push(conn)
      server.onConnection?.(conn)
    })
  })
  await new Promise<void>((resolve) => http.listen(opts.port ?? 0, '127.0.0.1', () => resolve()))
  server.port = (http.address() as AddressInfo).port
  server.url = `ws://127.0.0.1:${server.port}/api/v1/market/stream`
  return server
}

/** Polls a condition on real time (I/O happens on real sockets); fails after `timeoutMs`. */
export async function waitUntil(
  cond: () => boolean,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

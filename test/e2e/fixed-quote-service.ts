import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'

/**
 * A market-data service on loopback that quotes whatever the test says, for figures the
 * simulator never reaches (a price of 123,456,789.12, a token at 0.00001234). It speaks the
 * interface as the spec gives it (docs/market-data-interface.md): the envelope, X-API-Key,
 * GET /api/v1/market/crypto/quote?symbols=A,B answering TickerQuotes, and the stream
 * (/api/v1/market/stream) taking {action:'subscribe', market, symbols} and pushing ticker frames.
 * Every pushMs each subscribed symbol is pushed again with `last` nudged by one unit in the last
 * place (so sparklines draw and cells keep being rewritten while the test measures them).
 */
export type FixedQuote = Record<string, number> & { last: number }

export interface FixedQuoteService {
  url: string
  key: string
  close(): Promise<void>
}

/** A subscribe or unsubscribe frame: the symbols joined to or left from the pushed set, acked. */
function subscribeOrNot(ws: WebSocket, data: string, subscribed: Set<string>): void {
  let msg: { action?: unknown; market?: unknown; symbols?: unknown }
  try {
    msg = JSON.parse(data) as typeof msg
  } catch {
    return
  }
  if (!Array.isArray(msg.symbols)) return
  for (const s of msg.symbols) {
    if (typeof s !== 'string') continue
    if (msg.action === 'subscribe') subscribed.add(s)
    else if (msg.action === 'unsubscribe') subscribed.delete(s)
  }
  const event = msg.action === 'subscribe' ? 'subscribed' : 'unsubscribed'
  ws.send(JSON.stringify({ event, market: msg.market, symbols: msg.symbols }))
}

export async function startFixedQuoteService(
  quotes: Record<string, FixedQuote>,
  opts: {
    pushMs?: number
    /** Symbols the service refuses: a batch naming one gets 400 INVALID_SYMBOL (spec: Errors). */
    unknown?: readonly string[]
  } = {},
): Promise<FixedQuoteService> {
  const key = 'fixed-quote-key'
  const subscribed = new Set<string>()
  const sockets = new Set<WebSocket>()
  let step = 0
  const ticker = (symbol: string, now: number): Record<string, unknown> | null => {
    const q = quotes[symbol]
    if (q === undefined) return null
    const unit = 10 ** -(String(q.last).split('.')[1]?.length ?? 0)
    const last = Number((q.last + (step % 3) * unit).toFixed(12))
    return { symbol, ...q, last, openTime: now - 86_400_000, closeTime: now }
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'fixed' })
      res.end(JSON.stringify(body))
    }
    if (req.headers['x-api-key'] !== key)
      return reply(401, { succ: false, code: 'UNAUTHORIZED', msg: 'bad key' })
    if (url.pathname !== '/api/v1/market/crypto/quote')
      return reply(403, { succ: false, code: 'MARKET_NOT_ENABLED', msg: 'crypto only' })
    const symbols = (url.searchParams.get('symbols') ?? '').split(',').filter(Boolean)
    const refused = symbols.find((s) => opts.unknown?.includes(s))
    if (refused !== undefined)
      return reply(400, { succ: false, code: 'INVALID_SYMBOL', msg: `invalid symbol ${refused}` })
    const now = Date.now()
    reply(200, { succ: true, data: symbols.flatMap((s) => ticker(s, now) ?? []) })
  })
  const wss = new WebSocketServer({ noServer: true })
  server.on('upgrade', (req, socket, head) => {
    const ok = req.url?.startsWith('/api/v1/market/stream') && req.headers['x-api-key'] === key
    if (!ok) return socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n')
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws)
      ws.on('close', () => sockets.delete(ws))
      ws.on('message', (data) => subscribeOrNot(ws, String(data), subscribed))
    })
  })
  const timer = setInterval(() => {
    step++
    const now = Date.now()
    const data = [...subscribed].flatMap((s) => ticker(s, now) ?? [])
    if (data.length === 0) return
    const frame = JSON.stringify({ event: 'ticker', data })
    for (const ws of sockets) ws.send(frame)
  }, opts.pushMs ?? 250)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    close: async () => {
      clearInterval(timer)
      for (const ws of sockets) ws.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

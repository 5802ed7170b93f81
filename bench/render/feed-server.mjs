// @ts-check
import { createServer } from 'node:http'
import { WebSocketServer } from 'ws'

/**
 * A market-data service on loopback for the render benchmark, in its own process (plain JS, no
 * Tickdesk code): REST quotes (GET /api/v1/market/crypto/quote?symbols=A,B, the spec's
 * envelope) and the stream (/api/v1/market/stream; {action:'subscribe', market, symbols}),
 * authenticated by X-API-Key. Ticks go out as batch pushes {"event":"ticker","data":[…]}.
 *
 * Every price carries its send time: symbol i quotes (100 + i) + (Date.now() % 10000) / 10000,
 * so the page reads "123.4567" as "sent at a time whose last four millisecond digits are 4567"
 * and knows tick-to-DOM without any hook in the app (bench/render/page-recorder.ts).
 *
 * Controlled over IPC (child_process.fork): {mode:'idle'} (1 tick/s per subscribed symbol, all
 * in one frame each second), {mode:'spread'} (1 tick/s per symbol, each in its own frame at
 * the symbol's own moment in the second), {mode:'hot', ticksPerSec} (random subscribed symbols), {mode:'off'}. Reports
 * {listening: port} once, and {sent} on {type:'count'}.
 */
const KEY = process.env.FEED_KEY ?? 'bench-key'
const subscribed = new Map() // symbol -> index
/** @type {Set<import('ws').WebSocket>} */
const sockets = new Set()
let mode = { mode: 'off', ticksPerSec: 0 }
let sent = 0
let volume = 1_000_000

function indexOf(symbol) {
  const m = /(\d+)/.exec(symbol)
  return m ? Number(m[1]) % 900 : 0
}

function price(symbol, now) {
  return 100 + indexOf(symbol) + (now % 10000) / 10000
}

function tick(symbol, now) {
  const last = price(symbol, now)
  volume += 1
  return { symbol, market: 'crypto', last, bid: last - 0.5, ask: last + 0.5, volume, ts: now }
}

function quote(symbol, now) {
  const t = tick(symbol, now)
  const prevClose = 100 + indexOf(symbol)
  return {
    ...t,
    change: t.last - prevClose,
    changePercent: ((t.last - prevClose) / prevClose) * 100,
    open: prevClose,
    high: prevClose + 1,
    low: prevClose - 0.5,
    prevClose,
    quoteVolume: volume * t.last,
    bidSize: 1,
    askSize: 1,
    openTime: now - 86_400_000,
    closeTime: now,
    trades: 1000,
  }
}

function send(ticks) {
  if (ticks.length === 0) return
  const frame = JSON.stringify({ event: 'ticker', data: ticks })
  for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame)
  sent += ticks.length
}

// One loop for both modes: what is due since the last pass goes out as one frame.
let startedAt = performance.now()
let due = 0
let timer = null
function loop() {
  const symbols = [...subscribed.keys()]
  const now = Date.now()
  const elapsed = (performance.now() - startedAt) / 1000
  const ticks = []
  if (mode.mode === 'hot' && symbols.length > 0) {
    const target = Math.floor(elapsed * mode.ticksPerSec)
    for (; due < target; due++)
      ticks.push(tick(symbols[Math.floor(Math.random() * symbols.length)], now))
  } else if (mode.mode === 'idle' && symbols.length > 0) {
    // Once a second, one tick for every subscribed symbol, in one frame.
    const target = Math.floor(elapsed)
    if (due < target) {
      due = target
      for (const s of symbols) ticks.push(tick(s, now))
    }
  } else if (mode.mode === 'spread' && symbols.length > 0) {
    // One tick a second for every symbol at its own offset in the second, each its own frame:
    // a service that pushes as prices change rather than in one batch.
    const second = Math.floor(elapsed)
    for (const s of symbols) {
      const at = second + offsetOf(s)
      const last = sentAt.get(s) ?? -1
      if (elapsed >= at && last < second) {
        sentAt.set(s, second)
        send([tick(s, now)])
      }
    }
  }
  send(ticks)
  timer = setTimeout(loop, mode.mode === 'hot' ? 1 : 4)
}

/** A symbol's fixed offset within each second (spread mode), from its name: the same every run. */
const offsets = new Map()
const sentAt = new Map()
function offsetOf(symbol) {
  let o = offsets.get(symbol)
  if (o === undefined) {
    let h = 2166136261
    for (let i = 0; i < symbol.length; i++) h = Math.imul(h ^ symbol.charCodeAt(i), 16777619)
    o = ((h >>> 0) % 1000) / 1000
    offsets.set(symbol, o)
  }
  return o
}

function setMode(next) {
  mode = next
  startedAt = performance.now()
  due = 0
  sentAt.clear()
  if (timer === null) loop()
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const reply = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'bench' })
    res.end(JSON.stringify(body))
  }
  if (req.headers['x-api-key'] !== KEY)
    return reply(401, { succ: false, code: 'UNAUTHORIZED', msg: 'bad key' })
  if (url.pathname !== '/api/v1/market/crypto/quote')
    return reply(400, { succ: false, code: 'INVALID_REQUEST', msg: 'not served by the bench feed' })
  const symbols = (url.searchParams.get('symbols') ?? '').split(',').filter(Boolean).slice(0, 50)
  const now = Date.now()
  reply(200, { succ: true, data: symbols.map((s) => quote(s, now)) })
})

const wss = new WebSocketServer({ noServer: true })
server.on('upgrade', (req, socket, head) => {
  const ok = req.url?.startsWith('/api/v1/market/stream') && req.headers['x-api-key'] === KEY
  if (!ok) return socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n')
  wss.handleUpgrade(req, socket, head, (ws) => {
    sockets.add(ws)
    ws.on('close', () => sockets.delete(ws))
    ws.on('message', (data) => {
      let msg
      try {
        msg = JSON.parse(String(data))
      } catch {
        return
      }
      if (!Array.isArray(msg?.symbols)) return
      for (const s of msg.symbols) {
        if (typeof s !== 'string') continue
        if (msg.action === 'subscribe') subscribed.set(s, indexOf(s))
        else if (msg.action === 'unsubscribe') subscribed.delete(s)
      }
      ws.send(
        JSON.stringify({
          event: msg.action === 'subscribe' ? 'subscribed' : 'unsubscribed',
          market: msg.market,
          symbols: msg.symbols,
        }),
      )
    })
  })
})

server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.send?.({ listening: typeof address === 'object' && address ? address.port : 0 })
})
process.on('message', (msg) => {
  if (msg?.type === 'count') process.send?.({ sent, subscribed: subscribed.size })
  else if (msg?.mode) setMode(msg)
})
process.on('disconnect', () => process.exit(0))

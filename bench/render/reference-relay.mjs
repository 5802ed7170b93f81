// @ts-check
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { WebSocket, WebSocketServer } from 'ws'

/**
 * The lean reference host: shares no code with Tickdesk. Serves reference-page.html (at
 * /all-rows the reference before it, reference-page-all-rows.html) and relays the service's
 * frames, untouched, to the page: one upstream socket per page, subscribed to the symbols the
 * page asks for (its first message). FEED_URL, FEED_KEY from the environment.
 */
const page = readFileSync(new URL('./reference-page.html', import.meta.url))
const allRows = readFileSync(new URL('./reference-page-all-rows.html', import.meta.url))
const feed = process.env.FEED_URL ?? ''
const key = process.env.FEED_KEY ?? ''

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
  res.end(req.url?.startsWith('/all-rows') ? allRows : page)
})
const wss = new WebSocketServer({ server, path: '/feed' })
wss.on('connection', (client) => {
  /** @type {WebSocket | null} */
  let upstream = null
  client.once('message', (data) => {
    const symbols = JSON.parse(String(data)).symbols
    upstream = new WebSocket(feed, { headers: { 'X-API-Key': key } })
    upstream.on('open', () => {
      upstream?.send(JSON.stringify({ action: 'subscribe', market: 'crypto', symbols }))
    })
    upstream.on('message', (frame, isBinary) => {
      if (client.readyState === client.OPEN) client.send(frame, { binary: isBinary })
    })
    upstream.on('error', () => client.close())
  })
  client.on('close', () => upstream?.close())
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  console.log(`reference at http://127.0.0.1:${port}/`)
})

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import type { QuotePatch } from '../src/shared/quote'
import { SyntheticFeed } from './synthetic-feed'

/**
 * The lean reference page: the same SyntheticFeed batches applied to a plain 200-row table with
 * direct textContent writes, no framework, no validation. It bounds what any renderer could do on
 * this machine, measured in the same run as ours.
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>lean</title>
<style>td{padding:2px 6px;font:12px monospace}</style></head><body><table><tbody id="rows"></tbody></table>
<script>
const FIELDS = ['last', 'change', 'changePercent', 'high', 'low', 'volume', 'bid', 'ask'];
const rows = new Map();
const body = document.getElementById('rows');
const ws = new WebSocket('ws://' + location.host + '/feed');
ws.onmessage = (ev) => {
  const msg = JSON.parse(ev.data);
  if (msg.type === 'snapshot') {
    for (const q of msg.quotes) {
      const tr = document.createElement('tr'); tr.dataset.key = q.key;
      const cells = {};
      const name = document.createElement('td'); name.textContent = q.symbol; tr.appendChild(name);
      for (const f of FIELDS) { const td = document.createElement('td'); cells[f] = td; tr.appendChild(td); }
      body.appendChild(tr);
      rows.set(q.key, cells);
      apply(q);
    }
    return;
  }
  for (const p of msg.quotes) apply(p);
  globalThis.__tickdeskRendered?.(msg.quotes);
};
function apply(p) {
  const cells = rows.get(p.key);
  if (!cells) return;
  for (const f of FIELDS) { const v = p[f]; if (v !== undefined && v !== null) cells[f].textContent = v.toFixed(f === 'volume' ? 0 : 4); }
}
</script></body></html>`

export interface LeanPage {
  url: string
  feed: SyntheticFeed
  close(): Promise<void>
}

export async function startLeanPage(opts: {
  symbols: number
  ticksPerSec: number
}): Promise<LeanPage> {
  const sockets = new Set<WebSocket>()
  const feed = new SyntheticFeed({
    ...opts,
    onBatch: (quotes: QuotePatch[]) => {
      const text = JSON.stringify({ type: 'quotes', quotes })
      for (const s of sockets) s.send(text)
    },
  })
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(PAGE)
  })
  const wss = new WebSocketServer({ server, path: '/feed' })
  wss.on('connection', (ws) => {
    sockets.add(ws)
    ws.on('close', () => sockets.delete(ws))
    ws.send(JSON.stringify({ type: 'snapshot', quotes: feed.store.all() }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/`,
    feed,
    close: async () => {
      feed.stop()
      for (const s of sockets) s.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
}

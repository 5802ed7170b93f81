// @ts-check
import { parentPort, workerData } from 'node:worker_threads'
import { WebSocketServer } from 'ws'

/**
 * A loopback push server in its own thread (plain JS: worker threads do not get tsx's loader), so
 * the process being measured only receives. On the first client message (the subscribe) it sends
 * `frames` as fast as the socket drains, then stops. Every client (raw baseline or StreamClient)
 * gets the identical byte stream.
 */
const { frames } = /** @type {{ frames: string[] }} */ (workerData)
const IN_FLIGHT_BYTES = 4 * 1024 * 1024

/** @param {import('ws').WebSocket} ws */
async function pushAll(ws) {
  for (const frame of frames) {
    if (ws.readyState !== ws.OPEN) return
    ws.send(frame)
    if (ws.bufferedAmount > IN_FLIGHT_BYTES) {
      await new Promise((resolve) => {
        const wait = () => {
          if (ws.bufferedAmount <= IN_FLIGHT_BYTES / 2 || ws.readyState !== ws.OPEN) resolve(null)
          else setTimeout(wait, 1)
        }
        wait()
      })
    }
  }
}

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () => {
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  parentPort?.postMessage({ port })
})
server.on('connection', (ws) => {
  ws.once('message', () => void pushAll(ws))
})
parentPort?.on('message', (msg) => {
  if (msg === 'close') {
    for (const c of server.clients) c.terminate()
    server.close(() => process.exit(0))
  }
})

import { createServer, type Socket } from 'node:net'

/**
 * A service that never answers: a loopback TCP server that accepts every connection and never
 * writes a byte (no HTTP status line, no WebSocket upgrade). What a wedged proxy or a half-dead
 * host looks like from the app.
 */
export interface SilentService {
  url: string
  /** Connections accepted so far: proof that requests reached it. */
  accepted(): number
  close(): Promise<void>
}

export async function startSilentService(): Promise<SilentService> {
  const sockets = new Set<Socket>()
  let accepted = 0
  const server = createServer((socket) => {
    accepted++
    sockets.add(socket)
    socket.on('error', () => undefined)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

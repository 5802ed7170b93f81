import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A port on 127.0.0.1 that nothing listens on yet: a webhook that is down until listen(). */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const port = (probe.address() as AddressInfo).port
  await new Promise((r) => probe.close(r))
  return port
}

/**
 * A webhook receiver on 127.0.0.1 that hands over the fire id of every POST it gets, and its
 * `replayed` mark as sent (absent on a first delivery's body, if the sender leaves it out).
 */
export function listenForFires(
  port: number,
  onFire: (fireId: string, replayed: boolean | undefined) => void,
): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        const fire = JSON.parse(body) as { id: string; replayed?: boolean }
        onFire(fire.id, fire.replayed)
        res.writeHead(200).end()
      })
    })
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { configFromEnv } from '../engine/engine-config'
import { RateGovernor } from './rate-governor'
import { RestClient } from './rest-client'
import { StreamClient } from '../stream/stream-client'

/**
 * `Authorization: Bearer` beside X-API-Key (spec: Authentication 2): what a loopback receiver
 * sees on a REST call and on the stream's upgrade.
 */
let server: Server | null = null
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = null
})

async function receiver(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = []
  server = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"succ":true,"data":[]}')
  })
  server.on('upgrade', (req, socket) => {
    seen.push(req.headers)
    socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n')
  })
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()))
  return { url: `http://127.0.0.1:${(server?.address() as AddressInfo).port}`, seen }
}

describe('the key as Authorization: Bearer', () => {
  it('is sent on REST and on the stream upgrade when asked, X-API-Key otherwise', async () => {
    const { url, seen } = await receiver()
    const clock = new FakeClock()
    const governor = new RateGovernor({ rpm: 600, clock, random: () => 0.5 })
    for (const auth of ['bearer', 'x-api-key'] as const) {
      const rest = new RestClient({ baseUrl: url, apiKey: 'k-123456789', governor, auth })
      await rest.get('/api/v1/market/crypto/quote', { symbols: 'BTCUSDT' })
      const stream = new StreamClient({
        url: url.replace('http', 'ws') + '/api/v1/market/stream',
        apiKey: 'k-123456789',
        budget: { delayFor: () => 0, tryAcquire: () => true, report: () => undefined },
        clock,
        random: () => 0.5,
        auth,
      })
      stream.start()
      await expect.poll(() => seen.length).toBe(auth === 'bearer' ? 2 : 4)
      await stream.stop()
    }
    const [restBearer, wsBearer, restKey, wsKey] = seen
    for (const h of [restBearer, wsBearer]) {
      expect(h?.authorization).toBe('Bearer k-123456789')
      expect(h?.['x-api-key']).toBeUndefined()
    }
    for (const h of [restKey, wsKey]) {
      expect(h?.['x-api-key']).toBe('k-123456789')
      expect(h?.authorization).toBeUndefined()
    }
    expect(configFromEnv({ TICKDESK_AUTH: 'bearer' }).auth).toBe('bearer')
  })
})

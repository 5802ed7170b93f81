import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock, systemClock } from '../clock'
import { TickdeskError } from '../errors'
import type { Logger } from '../log'
import { seededRandom } from '../random'
import { RateGovernor } from './rate-governor'
import { RestClient } from './rest-client'
import {
  fail,
  ok,
  startRestServer,
  until,
  type RestTestServer,
  type TestReply,
} from '../testing/rest-test-server'

const KEY = 'sk-live-abcdef0123456789SECRET'
let server: RestTestServer | null = null

afterEach(async () => {
  await server?.close()
  server = null
})

async function setup(
  handler: () => TestReply,
  opts: { clock?: FakeClock; logger?: Logger } = {},
): Promise<{ client: RestClient; governor: RateGovernor; srv: RestTestServer }> {
  server = await startRestServer(handler)
  const clock = opts.clock ?? systemClock
  const governor = new RateGovernor({ rpm: 600, clock, random: seededRandom(1) })
  const client = new RestClient({
    baseUrl: server.url,
    apiKey: KEY,
    governor,
    clock,
    ...(opts.logger ? { logger: opts.logger } : {}),
  })
  return { client, governor, srv: server }
}

async function failure(p: Promise<unknown>): Promise<TickdeskError> {
  try {
    await p
  } catch (e) {
    if (e instanceof TickdeskError) return e
    throw e
  }
  throw new Error('expected a failure')
}

describe('RestClient', () => {
  it('returns envelope data and sends X-API-Key and a UUID X-Request-Id', async () => {
    const { client, srv } = await setup(() => ok([{ symbol: 'BTCUSDT', last: 1 }]))
    const r = await client.get('/api/v1/market/crypto/quote', { symbols: 'BTCUSDT,ETHUSDT' })
    expect(r.data).toEqual([{ symbol: 'BTCUSDT', last: 1 }])
    const seen = srv.requests[0]
    expect(seen?.headers['x-api-key']).toBe(KEY)
    expect(seen?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.requestId).toBe(seen?.headers['x-request-id'])
    expect(seen?.query.get('symbols')).toBe('BTCUSDT,ETHUSDT')
  })

  it('turns a failure envelope into a TickdeskError with status, code, message, request id and Retry-After', async () => {
    const { client } = await setup(() => ({
      ...fail(429, 'KEY_RATE_LIMIT_EXCEEDED', 'slow down'),
      headers: { 'retry-after': '12', 'x-request-id': 'req-77' },
    }))
    const e = await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    expect(e).toMatchObject({
      code: 'KEY_RATE_LIMIT_EXCEEDED',
      status: 429,
      requestId: 'req-77',
      retryAfterMs: 12_000,
    })
    expect(e.message).toContain('slow down')
  })

  it('pauses all REST calls for Retry-After seconds after a 429', async () => {
    const clock = new FakeClock()
    const { client, governor } = await setup(
      () => ({ ...fail(429, 'RATE_LIMIT_EXCEEDED'), headers: { 'retry-after': '30' } }),
      { clock },
    )
    await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    expect(governor.snapshot()).toMatchObject({ state: 'paused', code: 'RATE_LIMIT_EXCEEDED' })
    expect(governor.delayFor('rest')).toBe(30_000)
  })

  it('honours an HTTP-date Retry-After', async () => {
    const at = new Date(Date.now() + 120_000)
    const { client, governor } = await setup(() => ({
      ...fail(429, 'RATE_LIMIT_EXCEEDED'),
      headers: { 'retry-after': at.toUTCString() },
    }))
    const e = await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    // HTTP dates have one-second resolution
    expect(e.retryAfterMs).toBeGreaterThan(115_000)
    expect(e.retryAfterMs).toBeLessThanOrEqual(120_000)
    expect(governor.snapshot().retryAt).toBeGreaterThanOrEqual(at.getTime() - 1000)
  })

  it('reads a 401 that names a quota code as that over-limit key, not a bad key', async () => {
    const { client, governor } = await setup(() => ({
      ...fail(401, 'DAILY_LIMIT_EXCEEDED'),
      headers: { 'retry-after': '3600' },
    }))
    const e = await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    expect(e).toMatchObject({ code: 'DAILY_LIMIT_EXCEEDED', status: 429, retryAfterMs: 3_600_000 })
    expect(governor.snapshot()).toMatchObject({ state: 'quota', code: 'DAILY_LIMIT_EXCEEDED' })
  })

  it('reads a Retry-After sent as a Unix time as that time, not as decades', async () => {
    const clock = new FakeClock()
    const { client, governor } = await setup(
      () => ({
        ...fail(429, 'RATE_LIMIT_EXCEEDED'),
        headers: { 'retry-after': String(Math.round(clock.now() / 1000) + 40) },
      }),
      { clock },
    )
    await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    expect(governor.delayFor('rest')).toBeGreaterThan(39_000)
    expect(governor.delayFor('rest')).toBeLessThanOrEqual(41_000)
  })

  it('maps any 401 to UNAUTHORIZED regardless of body and stops all traffic', async () => {
    const { client, governor } = await setup(() => ({ status: 401, raw: '<html>denied</html>' }))
    const e = await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    expect(e).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
    expect(governor.snapshot()).toMatchObject({ state: 'stopped', code: 'UNAUTHORIZED' })
    expect(await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))).toMatchObject({
      code: 'UNAUTHORIZED',
    })
    client.setApiKey('sk-live-new-key-000000')
    expect(governor.snapshot().state).toBe('open')
  })

  it('reports non-JSON and non-envelope bodies as BAD_RESPONSE', async () => {
    let reply: TestReply = { status: 200, raw: 'not json' }
    const { client } = await setup(() => reply)
    expect(await failure(client.get('/x', {}))).toMatchObject({ code: 'BAD_RESPONSE' })
    reply = { status: 200, body: { data: [] } }
    expect(await failure(client.get('/x', {}))).toMatchObject({ code: 'BAD_RESPONSE' })
  })

  it('reports a bare 5xx as UPSTREAM_UNAVAILABLE and backs off', async () => {
    const { client, governor } = await setup(() => ({ status: 502, raw: '<h1>Bad gateway</h1>' }))
    expect(await failure(client.get('/x', {}))).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      status: 502,
    })
    expect(governor.snapshot().state).toBe('backoff')
  })

  it('reports an unreachable service as NETWORK', async () => {
    const { client, srv } = await setup(() => ok(null))
    await srv.close()
    server = null
    const e = await failure(client.get('/x', {}))
    expect(e.code).toBe('NETWORK')
    expect(e.status).toBeNull()
  })

  it('times out a slow request with TIMEOUT', async () => {
    const clock = new FakeClock()
    const { client, srv } = await setup(() => ({ hang: true }), { clock })
    const pending = failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    await until(() => srv.requests.length === 1)
    clock.advance(9_999)
    clock.advance(1)
    const e = await pending
    expect(e.code).toBe('TIMEOUT')
  })

  it('never puts the API key in an error message or a log line', async () => {
    const lines: string[] = []
    const logger: Logger = {
      log: (level, message, fields) => lines.push(`${level} ${message} ${JSON.stringify(fields)}`),
    }
    const { client } = await setup(
      () => fail(403, 'API_KEY_SCOPE_DENIED', `key ${KEY} lacks scope`),
      { logger },
    )
    const e = await failure(client.get('/api/v1/market/quote', { symbols: 'EURUSD' }))
    expect(e.code).toBe('API_KEY_SCOPE_DENIED')
    expect(e.message).not.toContain(KEY)
    expect(JSON.stringify(e.toJSON())).not.toContain(KEY)
    expect(e.message).toContain('lacks scope')
    expect(lines.length).toBeGreaterThan(0)
    for (const l of lines) expect(l).not.toContain(KEY)
  })
})

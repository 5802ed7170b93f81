import { describe, expect, it } from 'vitest'
import { FakeClock } from '../util/clock'
import type { SimServer } from './index'
import {
  closed,
  getJson,
  mustOpen,
  openStream,
  type Frame,
  type FrameQueue,
} from './testing/spec-client'
import { simBooter } from './testing/sim-boot'

const QUOTE = '/api/v1/market/crypto/quote?symbols=BTCUSDT'
const boot = simBooter()
const get = (s: SimServer, path = QUOTE) => getJson(s.url, path, s.keys.pro)
const isTick = (f: Frame): boolean => f.type === 'tick'
/** A Pro socket subscribed to BTCUSDT, its first tick in. */
async function tickingBtc(s: SimServer): Promise<FrameQueue> {
  const q = await mustOpen(s.streamUrl, s.keys.pro)
  q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT'] })
  await q.next(isTick)
  return q
}

describe('failNext', () => {
  it('answers 502 UPSTREAM_UNAVAILABLE and 503 RATE_LIMIT_UNAVAILABLE envelopes, then recovers', async () => {
    const s = await boot()
    s.faults.failNext({ status: 502, code: 'UPSTREAM_UNAVAILABLE' })
    s.faults.failNext({ status: 503, code: 'RATE_LIMIT_UNAVAILABLE', retryAfterSec: 2 })
    const a = await get(s)
    expect(a.status).toBe(502)
    expect(a.body).toMatchObject({ succ: false, code: 'UPSTREAM_UNAVAILABLE' })
    const b = await get(s)
    expect(b.status).toBe(503)
    expect(b.headers.get('retry-after')).toBe('2')
    expect((await get(s)).status).toBe(200)
  })

  it('sends a bare non-JSON body when no code is given, `times` times', async () => {
    const s = await boot()
    s.faults.failNext({ status: 502, times: 2 })
    for (let i = 0; i < 2; i++) {
      const r = await get(s)
      expect(r.status).toBe(502)
      expect(r.body).toBeNull()
      expect(r.headers.get('x-request-id')).toBeTruthy()
    }
    expect((await get(s)).status).toBe(200)
  })

  it('fails only the given path and passes an HTTP-date Retry-After through verbatim', async () => {
    const s = await boot()
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT'
    s.faults.failNext({
      status: 429,
      code: 'KEY_RATE_LIMIT_EXCEEDED',
      retryAfterSec: date,
      path: '/api/v1/market/quote',
    })
    expect((await get(s)).status).toBe(200)
    const r = await get(s, '/api/v1/market/quote?symbols=EURUSD')
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).toBe(date)
    expect(s.stats().http429).toBe(1)
  })

  it('refuses the next stream upgrade when aimed at the stream path', async () => {
    const s = await boot()
    s.faults.failNext({
      status: 503,
      code: 'RATE_LIMIT_UNAVAILABLE',
      path: '/api/v1/market/stream',
    })
    expect(await openStream(s.streamUrl, s.keys.pro)).toMatchObject({ ok: false, status: 503 })
    const ok = await openStream(s.streamUrl, s.keys.pro)
    expect(ok.ok).toBe(true)
    if (ok.ok) ok.q.ws.close()
  })
})

describe('socket faults', () => {
  it('dropSockets terminates every connection', async () => {
    const s = await boot()
    const a = await mustOpen(s.streamUrl, s.keys.pro)
    const b = await mustOpen(s.streamUrl, s.keys.growth)
    s.faults.dropSockets()
    expect((await closed(a.ws)).code).toBe(1006)
    expect((await closed(b.ws)).code).toBe(1006)
  })

  it('silence stops data and pongs for the given time, then data resumes', async () => {
    const s = await boot()
    const q = await tickingBtc(s)
    s.faults.silence(1_000)
    const quietFrom = q.raw.length
    let ponged = false
    q.ws.on('pong', () => (ponged = true))
    q.ws.ping()
    await new Promise((r) => setTimeout(r, 100))
    expect(q.raw.length).toBe(quietFrom)
    expect(ponged).toBe(false)
    await q.next(isTick, 3_000)
  })

  it('malformed sends garbage frames (bad JSON, wrong types, unknown event) before valid ones', async () => {
    const s = await boot()
    const q = await tickingBtc(s)
    s.faults.malformed(3)
    const from = q.raw.length
    await q.next((f) => isTick(f) && typeof f.last === 'number' && q.raw.length > from + 3)
    const garbage = q.raw.slice(from, from + 3)
    expect(() =>
      JSON.parse(garbage.find((g) => !g.startsWith('{"event"') && !g.includes('"abc"'))!),
    ).toThrow()
    expect(garbage.some((g) => g.includes('"symbol":42'))).toBe(true)
    expect(garbage.some((g) => g.includes('"mystery"'))).toBe(true)
  })

  it('revokeKey closes that key sockets with 1008 and answers 401 from then on', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.growth)
    s.faults.revokeKey(s.keys.growth)
    expect((await closed(q.ws)).code).toBe(1008)
    expect((await getJson(s.url, QUOTE, s.keys.growth)).status).toBe(401)
    expect(await openStream(s.streamUrl, s.keys.growth)).toMatchObject({ ok: false, status: 401 })
    s.faults.reset()
    expect((await getJson(s.url, QUOTE, s.keys.growth)).status).toBe(200)
  })
})

describe('service faults', () => {
  it('slow delays REST responses on the injected clock for `times` requests', async () => {
    const clock = new FakeClock()
    const s = await boot({ clock })
    s.faults.slow(5_000, 1)
    let done = false
    const pending = get(s).then((r) => ((done = true), r))
    // The delay is set on the fake clock when the request arrives (counted in the same step):
    // moving the clock before that, on a slow machine, would leave it waiting for good.
    while (s.stats().requests === 0) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 20))
    expect(done).toBe(false)
    clock.advance(5_000)
    expect((await pending).status).toBe(200)
    expect((await get(s)).status).toBe(200)
  })

  it('down makes the service unreachable and up brings it back on the same port', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    await s.faults.down()
    expect((await closed(q.ws)).code).toBe(1006)
    await expect(fetch(`${s.url}${QUOTE}`)).rejects.toThrow()
    await s.faults.up()
    expect((await get(s)).status).toBe(200)
    const again = await mustOpen(s.streamUrl, s.keys.pro)
    again.ws.close()
  })

  it('reset clears pending failures and slowness', async () => {
    const s = await boot()
    s.faults.failNext({ status: 502, times: 5 })
    s.faults.slow(60_000)
    s.faults.reset()
    expect((await get(s)).status).toBe(200)
  })
})

describe('stats', () => {
  it('resetStats zeroes counters but keeps open sockets counted', async () => {
    const s = await boot()
    await get(s)
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    s.resetStats()
    expect(s.stats()).toMatchObject({ requests: 0, restRequests: 0, wsHandshakes: 0, wsOpen: 1 })
    q.ws.close()
  })
})

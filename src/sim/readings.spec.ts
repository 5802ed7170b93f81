import { describe, expect, it } from 'vitest'
import { FakeClock } from '../util/clock'
import { closed, getJson, mustOpen, type Frame } from './testing/spec-client'
import { simBooter } from './testing/sim-boot'
import { symbolsIn } from './market/instruments'

/**
 * The readings the simulator serves beside its own (behaviour.ts, dialects.ts, faults.ts), each
 * seen from the wire, and its record of what it served.
 */
const boot = simBooter()
const QUOTE = '/api/v1/market/crypto/quote?symbols=BTCUSDT'
type Body = { succ: boolean; code?: string; data: unknown }
const isTick = (f: Frame): boolean => f.type === 'tick' || f.e === '24hrTicker'

describe('over-limit refusals', () => {
  it('sends a quota refusal as a 401 carrying the 429 code when the service reads it so', async () => {
    const s = await boot({
      behaviour: { overLimitStatus: 401 },
      keyRpm: { [`demo-free-0001-5c1e8a7d`]: 2 },
    })
    for (let i = 0; i < 2; i++) expect((await getJson(s.url, QUOTE, s.keys.free)).status).toBe(200)
    const r = await getJson(s.url, QUOTE, s.keys.free)
    expect([r.status, (r.body as Body).code]).toEqual([401, 'KEY_RATE_LIMIT_EXCEEDED'])
    expect(s.stats()).toMatchObject({ http401: 1, http429: 0, overLimit: 1 })
  })

  it('writes Retry-After as seconds, an HTTP date or a Unix time', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 28, 12, 0, 0))
    const values: string[] = []
    for (const retryAfter of ['seconds', 'http-date', 'epoch'] as const) {
      const s = await boot({
        clock,
        behaviour: { retryAfter },
        keyRpm: { 'demo-pro-0001-3d7c1f9e': 1 },
      })
      await getJson(s.url, QUOTE, s.keys.pro)
      values.push((await getJson(s.url, QUOTE, s.keys.pro)).headers.get('retry-after') ?? '')
      await s.close()
    }
    expect(values).toEqual(['60', 'Sat, 28 Nov 2026 12:01:00 GMT', String(clock.now() / 1000 + 60)])
  })
})

describe('quotes with gaps', () => {
  it('answers data: null when no symbol asked has a quote, and last 0 before a first trade', async () => {
    const s = await boot({ behaviour: { noQuoteAsNull: true } })
    s.faults.noQuote('crypto', 'BTCUSDT')
    expect((await getJson(s.url, QUOTE, s.keys.pro)).body).toMatchObject({ succ: true, data: null })
    s.faults.noQuote(null)
    s.faults.untraded('cn', '600519')
    const r = await getJson(s.url, '/api/v1/market/quote?symbols=600519', s.keys.pro)
    expect((r.body as { data: Array<Record<string, unknown>> }).data[0]).toMatchObject({
      last: 0,
      change: 0,
    })
  })

  it('quotes bid and ask only for a market it serves so, on REST and the stream', async () => {
    const s = await boot({ behaviour: { bidAskOnly: ['fx'] } })
    const r = await getJson(s.url, '/api/v1/market/quote?symbols=EURUSD', s.keys.pro)
    const row = (r.body as { data: Array<Record<string, unknown>> }).data[0] ?? {}
    expect(row).toHaveProperty('bid')
    expect(row).not.toHaveProperty('last')
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'fx', symbols: ['EURUSD'] })
    const t = await q.next(isTick)
    expect(t).toHaveProperty('bid')
    expect(t).not.toHaveProperty('last')
    q.ws.close()
  })
})

describe('keep-alive demands', () => {
  it('closes a socket that sent nothing of its own for 20 s, saying why; one that pings stays', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 28, 12))
    const s = await boot({ clock, behaviour: { keepAlive: 'client-ping' }, heartbeatMs: 10_000 })
    const mute = await mustOpen(s.streamUrl, s.keys.pro)
    const chatty = await mustOpen(s.streamUrl, s.keys.pro)
    const gone = closed(mute.ws)
    let pinged = 0
    mute.ws.on('ping', () => pinged++)
    for (let beat = 1; beat <= 3; beat++) {
      chatty.send({ action: 'ping' })
      await chatty.next((f) => f.event === 'pong')
      clock.advance(10_000)
      // The mute socket still answers WebSocket pings (ws does by itself): only its silence counts.
      while (beat < 3 && pinged < beat) await new Promise((r) => setTimeout(r, 5))
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(await gone).toMatchObject({ code: 4000, reason: expect.stringMatching(/no ping/) })
    expect(chatty.ws.readyState).toBe(chatty.ws.OPEN)
    chatty.ws.close()
  })

  it('closes a socket whose answer to its ping is not {"action":"pong"}', async () => {
    const s = await boot({ behaviour: { keepAlive: 'action-pong' }, heartbeatMs: 200 })
    const wrong = await mustOpen(s.streamUrl, s.keys.pro)
    const gone = closed(wrong.ws)
    wrong.ws.on('message', (d) => d.toString().includes('ping') && wrong.send({ event: 'pong' }))
    const right = await mustOpen(s.streamUrl, s.keys.pro)
    right.ws.on('message', (d) => d.toString().includes('ping') && right.send({ action: 'pong' }))
    expect(await gone).toMatchObject({ code: 4001 })
    expect(right.ws.readyState).toBe(right.ws.OPEN)
    right.ws.close()
  })
})

describe('the symbol cap counts names on trial', () => {
  it('holds symbols acked under a name it does not know against the cap until unsubscribed there', async () => {
    const s = await boot({ behaviour: { marketNames: 'service', unknownMarket: 'silent' } })
    const q = await mustOpen(s.streamUrl, s.keys.free)
    q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] })
    await q.next((f) => f.event === 'subscribed')
    expect(s.ghostSubscriptions()).toBe(3)
    // Eight more, under the service's name: eleven in all, one over the Free cap.
    const symbols = symbolsIn('crypto').slice(3, 11)
    q.send({ action: 'subscribe', market: 'spot', symbols })
    expect(await q.next((f) => f.event === 'error')).toMatchObject({ code: 'WS_CONN_LIMIT' })
    q.send({ action: 'unsubscribe', market: 'crypto', symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] })
    await q.next((f) => f.event === 'unsubscribed')
    expect(s.ghostSubscriptions()).toBe(0)
    expect(s.stats().byKey[s.keys.free]).toMatchObject({ maxSubscribed: 10 })
    expect(s.stats().overCapRefusals).toBe(1)
    q.ws.close()
  })
})

describe('the record of what was served', () => {
  it('keeps every REST row and push with its figures, and when a price was last served', async () => {
    const s = await boot()
    const before = Date.now()
    const r = await getJson(s.url, QUOTE, s.keys.pro)
    const row = ((r.body as { data: Array<{ last: number }> }).data[0] ?? { last: 0 }).last
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT'] })
    const pushed = (await q.next(isTick)).last as number
    const served = s.served('crypto:BTCUSDT', before, Date.now())
    expect(served.map((x) => x.via)).toEqual(expect.arrayContaining(['rest', 'stream']))
    expect(served.find((x) => x.via === 'rest')?.last).toBe(row)
    expect(s.lastServedAt('crypto:BTCUSDT', pushed, Date.now())).not.toBeNull()
    expect(s.lastServedAt('crypto:BTCUSDT', -1, Date.now())).toBeNull()
    q.ws.close()
  })
})

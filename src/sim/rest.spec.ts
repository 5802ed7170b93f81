import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_KEY, KLINE_SOURCE, startSimulator, type SimServer } from './index'
import { getJson, openStream } from './testing/spec-client'
import { QUOTE_FIGURES } from '../shared/quote'

type Envelope = { succ: boolean; data: unknown; msg?: string; code?: string }
/** TickerQuote's numbers (spec: TickerQuote): every figure of the client's table, and the window's times. */
const QUOTE_NUMBERS = [...QUOTE_FIGURES, 'openTime', 'closeTime']

let sim: SimServer
beforeAll(async () => {
  sim = await startSimulator({ seed: 7 })
})
afterAll(async () => {
  await sim.close()
})

const get = (path: string, key: string | null = DEMO_KEY, headers?: Record<string, string>) =>
  getJson(sim.url, path, key, headers)

describe('REST envelope and auth', () => {
  it('wraps data in {succ:true,data} and sets X-Request-Id', async () => {
    const r = await get('/api/v1/market/crypto/quote?symbols=BTCUSDT')
    expect(r.status).toBe(200)
    expect((r.body as Envelope).succ).toBe(true)
    expect(r.headers.get('x-request-id')).toMatch(/^sim-/)
  })

  it('echoes the client X-Request-Id', async () => {
    const r = await get('/api/v1/market/crypto/quote?symbols=BTCUSDT', DEMO_KEY, {
      'X-Request-Id': 'abc-123',
    })
    expect(r.headers.get('x-request-id')).toBe('abc-123')
  })

  it('accepts Authorization: Bearer as well as X-API-Key', async () => {
    const r = await get('/api/v1/market/crypto/quote?symbols=ETHUSDT', null, {
      Authorization: `Bearer ${DEMO_KEY}`,
    })
    expect(r.status).toBe(200)
  })

  it('answers 401 UNAUTHORIZED for a missing or unknown key, with a request id', async () => {
    for (const key of [null, 'nope-0000']) {
      const r = await get('/api/v1/market/crypto/quote?symbols=BTCUSDT', key)
      expect(r.status).toBe(401)
      expect(r.body).toMatchObject({ succ: false, code: 'UNAUTHORIZED' })
      expect(r.headers.get('x-request-id')).toBeTruthy()
    }
  })

  it('answers 403 SUBSCRIPTION_EXPIRED for the expired key on every endpoint', async () => {
    const r = await get('/api/v1/market/quote?symbols=EURUSD', sim.keys.expired)
    expect(r.status).toBe(403)
    expect((r.body as Envelope).code).toBe('SUBSCRIPTION_EXPIRED')
  })

  it('answers 403 MARKET_NOT_ENABLED when a crypto-only key asks for futures, multi or agri', async () => {
    for (const path of [
      '/api/v1/market/tv-futures/kline?symbol=ES1!',
      '/api/v1/market/quote?symbols=EURUSD',
      '/api/v1/market/agri/kline?symbol=ZC1!',
    ]) {
      const r = await get(path, sim.keys.cryptoOnly)
      expect(r.status, path).toBe(403)
      expect((r.body as Envelope).code).toBe('MARKET_NOT_ENABLED')
    }
    expect(
      (await get('/api/v1/market/futures/quote?symbols=BTCUSDT', sim.keys.cryptoOnly)).status,
    ).toBe(200)
  })

  it('answers each account-wide 403 code of the spec for its key, on REST and on the stream upgrade', async () => {
    const cases = [
      [sim.keys.noSubscription, 'NO_SUBSCRIPTION'],
      [sim.keys.ipDenied, 'IP_DENIED'],
      [sim.keys.geoDenied, 'GEO_DENIED'],
    ] as const
    for (const [key, code] of cases) {
      const r = await get('/api/v1/market/crypto/quote?symbols=BTCUSDT', key)
      expect(r.status, code).toBe(403)
      expect((r.body as Envelope).code).toBe(code)
      const upgrade = await openStream(sim.streamUrl, key)
      expect(upgrade).toMatchObject({ ok: false, status: 403 })
      if (!upgrade.ok) expect(JSON.parse(upgrade.body)).toMatchObject({ code })
    }
  })

  it('answers 403 API_KEY_SCOPE_DENIED when the key (not the plan) lacks a market', async () => {
    const r = await get('/api/v1/market/quote?symbols=EURUSD', sim.keys.scopeDenied)
    expect(r.status).toBe(403)
    expect((r.body as Envelope).code).toBe('API_KEY_SCOPE_DENIED')
    expect(
      (await get('/api/v1/market/crypto/quote?symbols=BTCUSDT', sim.keys.scopeDenied)).status,
    ).toBe(200)
  })

  it('answers an unknown path with a 404 envelope', async () => {
    const r = await get('/api/v1/market/nothing')
    expect(r.status).toBe(404)
    expect(r.body).toMatchObject({ succ: false, code: 'NOT_FOUND' })
  })
})

describe('quote endpoints', () => {
  it('returns a TickerQuote with every field of the spec for crypto spot', async () => {
    const r = await get('/api/v1/market/crypto/quote?symbols=BTCUSDT,ETHUSDT')
    const data = (r.body as Envelope).data as Record<string, unknown>[]
    expect(data.map((q) => q.symbol)).toEqual(['BTCUSDT', 'ETHUSDT'])
    for (const q of data) {
      for (const f of QUOTE_NUMBERS) expect(typeof q[f], f).toBe('number')
      expect(q.bid as number).toBeLessThan(q.ask as number)
      expect(q.high as number).toBeGreaterThanOrEqual(q.low as number)
    }
    const btc = data[0] as Record<string, number>
    expect(btc.last).toBeGreaterThan(60_000)
    expect(btc.last).toBeLessThan(100_000)
  })

  it('serves USDT-margined perps on futures/quote and accepts the symbol alias', async () => {
    const r = await get('/api/v1/market/futures/quote?symbol=SOLUSDT')
    expect(r.status).toBe(200)
    expect(((r.body as Envelope).data as { symbol: string }[])[0]?.symbol).toBe('SOLUSDT')
  })

  it('serves FX, commodities, A-shares, HK, futures and indices on the multi-market quote', async () => {
    const r = await get(
      '/api/v1/market/quote?symbols=EURUSD,XAUUSD,600519,00700,ES1!,SPX,OANDA:USDJPY',
    )
    expect(r.status).toBe(200)
    const data = (r.body as Envelope).data as { symbol: string; market: string; last: number }[]
    expect(data.map((q) => `${q.market}:${q.symbol}`)).toEqual([
      'fx:EURUSD',
      'commodity:XAUUSD',
      'cn:600519',
      'hk:00700',
      'futures:ES1!',
      'index:SPX',
      'fx:USDJPY',
    ])
    expect(data[0]?.last).toBeGreaterThan(1)
    expect(data[0]?.last).toBeLessThan(1.2)
    expect(data[1]?.last).toBeGreaterThan(2000)
  })

  it('fails the whole request with 400 UNKNOWN_SYMBOL when one symbol is unknown', async () => {
    const multi = await get('/api/v1/market/quote?symbols=EURUSD,NOPE1')
    expect(multi.status).toBe(400)
    expect(multi.body).toMatchObject({ succ: false, code: 'UNKNOWN_SYMBOL' })
    const crypto = await get('/api/v1/market/crypto/quote?symbols=BTCUSDT,ZZZUSDT')
    expect((crypto.body as Envelope).code).toBe('UNKNOWN_SYMBOL')
  })

  it('answers 400 INVALID_SYMBOL for a malformed symbol', async () => {
    const r = await get('/api/v1/market/futures/quote?symbols=BTC/USDT')
    expect(r.status).toBe(400)
    expect((r.body as Envelope).code).toBe('INVALID_SYMBOL')
  })

  it('answers 400 INVALID_REQUEST without symbols or with more than 50 (typed dialect rejects)', async () => {
    expect(((await get('/api/v1/market/crypto/quote')).body as Envelope).code).toBe(
      'INVALID_REQUEST',
    )
    const many = Array.from({ length: 51 }, (_, i) => `X${i}USDT`).join(',')
    const r = await get(`/api/v1/market/crypto/quote?symbols=${many}`)
    expect(r.status).toBe(400)
    expect((r.body as Envelope).code).toBe('INVALID_REQUEST')
  })
})

describe('kline endpoints', () => {
  it('returns continuous futures bars with normalised interval, source and market', async () => {
    const r = await get('/api/v1/market/tv-futures/kline?symbol=ES1!&interval=60&limit=24')
    expect(r.status).toBe(200)
    const data = (r.body as Envelope).data as {
      symbol: string
      interval: string
      source: string
      market: string
      bars: Record<string, number>[]
    }
    expect(data).toMatchObject({
      symbol: 'ES1!',
      interval: '1h',
      source: KLINE_SOURCE,
      market: 'futures',
    })
    expect(data.bars).toHaveLength(24)
    for (const [i, b] of data.bars.entries()) {
      expect(b.closeTimeMs! - b.openTimeMs!).toBe(3_600_000 - 1)
      expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open!, b.close!))
      expect(b.low).toBeLessThanOrEqual(Math.min(b.open!, b.close!))
      if (i > 0) expect(b.openTimeMs).toBe(data.bars[i - 1]!.closeTimeMs! + 1)
    }
    expect(data.bars.at(-1)!.openTimeMs).toBeLessThanOrEqual(Date.now())
  })

  it('defaults to interval 1m and 300 bars', async () => {
    const data = ((await get('/api/v1/market/tv-futures/kline?symbol=NQ1!')).body as Envelope)
      .data as { interval: string; bars: unknown[] }
    expect(data.interval).toBe('1m')
    expect(data.bars).toHaveLength(300)
  })

  it.each([
    ['1', '1m'],
    ['5', '5m'],
    ['15m', '15m'],
    ['240', '4h'],
    ['D', '1d'],
    ['1w', '1w'],
    ['1mo', '1mo'],
    ['M', '1mo'],
  ])('normalises interval %s to %s', async (raw, norm) => {
    const r = await get(`/api/v1/market/tv-futures/kline?symbol=CL1!&interval=${raw}&limit=3`)
    expect(((r.body as Envelope).data as { interval: string }).interval).toBe(norm)
  })

  it('answers 400 INVALID_REQUEST for a bad interval, a missing symbol or a limit outside 1..5000', async () => {
    for (const q of [
      'symbol=ES1!&interval=7x',
      'interval=1',
      'symbol=ES1!&limit=0',
      'symbol=ES1!&limit=5001',
      'symbol=ES1!&limit=ten',
    ]) {
      const r = await get(`/api/v1/market/tv-futures/kline?${q}`)
      expect(r.status, q).toBe(400)
      expect((r.body as Envelope).code, q).toBe('INVALID_REQUEST')
    }
  })

  it('serves agricultural candles on agri/kline and rejects unknown ones', async () => {
    const ok = await get('/api/v1/market/agri/kline?symbol=ZC1!&interval=1d&limit=5')
    expect(((ok.body as Envelope).data as { market: string; bars: unknown[] }).bars).toHaveLength(5)
    const unknown = await get('/api/v1/market/agri/kline?symbol=ES1!')
    expect((unknown.body as Envelope).code).toBe('UNKNOWN_SYMBOL')
  })
})

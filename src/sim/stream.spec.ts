import { describe, expect, it } from 'vitest'
import { INSTRUMENTS, type SimMarket } from './market/instruments'
import { closed, getJson, mustOpen, openStream, type Frame } from './testing/spec-client'
import { simBooter } from './testing/sim-boot'

const boot = simBooter()

const MULTI: SimMarket[] = ['fx', 'commodity', 'cn', 'hk', 'futures', 'index', 'agri']
const isTick = (f: Frame): boolean => f.type === 'tick' || f.event === 'ticker'

describe('stream handshake', () => {
  it('accepts the key as X-API-Key, Bearer or ?apiKey= and counts each handshake once', async () => {
    const s = await boot()
    for (const via of ['header', 'bearer', 'query'] as const) {
      const o = await openStream(s.streamUrl, s.keys.pro, via)
      expect(o.ok, via).toBe(true)
      if (o.ok) o.q.ws.close()
    }
    expect(s.stats()).toMatchObject({ wsHandshakes: 3, requests: 3 })
  })

  it('refuses the upgrade with 401 for a missing or unknown key and 403 for an expired one', async () => {
    const s = await boot()
    expect(await openStream(s.streamUrl, null)).toMatchObject({ ok: false, status: 401 })
    expect(await openStream(s.streamUrl, 'bogus-key')).toMatchObject({ ok: false, status: 401 })
    const expired = await openStream(s.streamUrl, s.keys.expired)
    expect(expired).toMatchObject({ ok: false, status: 403 })
    if (!expired.ok)
      expect(JSON.parse(expired.body)).toMatchObject({ code: 'SUBSCRIPTION_EXPIRED' })
    expect(s.stats()).toMatchObject({ http401: 2, http403: 1, wsOpen: 0 })
  })

  it('sends WS_CONN_LIMIT and closes with 1008 when a key exceeds its plan connection cap', async () => {
    const s = await boot()
    const first = await mustOpen(s.streamUrl, s.keys.free)
    const second = await mustOpen(s.streamUrl, s.keys.free)
    const err = await second.next((f) => f.event === 'error')
    expect(err).toMatchObject({ code: 'WS_CONN_LIMIT' })
    expect((await closed(second.ws)).code).toBe(1008)
    expect(s.stats().byKey[s.keys.free]).toMatchObject({ wsOpen: 1, maxWsOpen: 1 })
    first.ws.close()
  })
})

describe('subscriptions and pushes', () => {
  it('acks a subscribe and pushes ticks with symbol, market, last and ts', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'crypto', symbols: ['btcusdt', 'ETHUSDT'] })
    expect(await q.next((f) => f.event === 'subscribed')).toEqual({
      event: 'subscribed',
      market: 'crypto',
      symbols: ['BTCUSDT', 'ETHUSDT'],
    })
    const seen = new Set<unknown>()
    while (seen.size < 2) {
      const t = await q.next(isTick)
      expect(t).toMatchObject({ type: 'tick', market: 'crypto' })
      expect(typeof t.last).toBe('number')
      expect(Math.abs((t.ts as number) - Date.now())).toBeLessThan(5_000)
      seen.add(t.symbol)
    }
    expect(s.stats().subscribedSymbols).toBe(2)
    q.ws.close()
  })

  it('pushes partial ticks: some carry no bid/ask or volume', async () => {
    const s = await boot({ tickIntervalMs: 2 })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'usdt-futures', symbols: ['BTCUSDT'] })
    const ticks: Frame[] = []
    for (let i = 0; i < 30; i++) ticks.push(await q.next(isTick))
    expect(ticks.some((t) => !('volume' in t) || !('bid' in t))).toBe(true)
    expect(ticks.some((t) => 'volume' in t && 'bid' in t)).toBe(true)
    q.ws.close()
  })

  it('reports unknown symbols in an UNKNOWN_SYMBOL error frame and subscribes the rest', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'fx', symbols: ['EURUSD', 'NOPE'] })
    expect(await q.next((f) => f.event === 'error')).toMatchObject({
      code: 'UNKNOWN_SYMBOL',
      symbols: ['NOPE'],
    })
    expect(await q.next((f) => f.event === 'subscribed')).toMatchObject({ symbols: ['EURUSD'] })
    q.ws.close()
  })

  it('refuses a market outside the key scope with MARKET_NOT_ENABLED', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.cryptoOnly)
    q.send({ action: 'subscribe', market: 'hk', symbols: ['00700'] })
    expect(await q.next((f) => f.event === 'error')).toMatchObject({ code: 'MARKET_NOT_ENABLED' })
    q.ws.close()
  })

  it('subscribes only up to the plan symbol cap and reports the rest as WS_CONN_LIMIT', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.free)
    // The catalogue's first twelve crypto symbols; the last two (LTCUSDT, TRXUSDT) are over the cap.
    const twelve = INSTRUMENTS.filter((i) => i.market === 'crypto')
      .slice(0, 12)
      .map((i) => i.symbol)
    q.send({ action: 'subscribe', market: 'crypto', symbols: twelve })
    const err = await q.next((f) => f.event === 'error')
    expect(err).toMatchObject({ code: 'WS_CONN_LIMIT', symbols: ['LTCUSDT', 'TRXUSDT'] })
    expect(String(err.message)).toMatch(/symbol cap/)
    expect((await q.next((f) => f.event === 'subscribed')).symbols).toEqual(twelve.slice(0, 10))
    expect(s.stats().subscribedSymbols).toBe(10)
    q.ws.close()
  })

  it('stops pushing a symbol after unsubscribe', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'index', symbols: ['SPX', 'NDX'] })
    await q.next((f) => f.event === 'subscribed')
    q.send({ action: 'unsubscribe', market: 'index', symbols: ['SPX'] })
    await q.next((f) => f.event === 'unsubscribed')
    q.raw.length = 0
    for (let i = 0; i < 5; i++) await q.next((f) => isTick(f) && f.symbol === 'NDX')
    expect(q.raw.some((r) => r.includes('"SPX"'))).toBe(false)
    expect(s.stats().subscribedSymbols).toBe(1)
    q.ws.close()
  })

  it('ignores unsubscribe when the behaviour says so: acknowledged, still pushed, still counted', async () => {
    const s = await boot({ behaviour: { ignoresUnsubscribe: true } })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'index', symbols: ['SPX', 'NDX'] })
    await q.next((f) => f.event === 'subscribed')
    q.send({ action: 'unsubscribe', market: 'index', symbols: ['SPX'] })
    await q.next((f) => f.event === 'unsubscribed')
    await q.next((f) => isTick(f) && f.symbol === 'SPX')
    expect(s.stats().subscribedSymbols).toBe(2)
    q.ws.close()
  })

  it('reports the symbol cap without the refused symbols when the behaviour says so', async () => {
    const s = await boot({ behaviour: { symbolCapError: 'unlisted' } })
    const q = await mustOpen(s.streamUrl, s.keys.free)
    const coins = INSTRUMENTS.filter((i) => i.market === 'crypto').map((i) => i.symbol)
    q.send({ action: 'subscribe', market: 'crypto', symbols: coins.slice(0, 12) })
    const error = await q.next((f) => f.event === 'error')
    expect(error).toEqual({ event: 'error', code: 'WS_CONN_LIMIT', message: 'limit reached' })
    expect(s.stats().subscribedSymbols).toBe(10)
    q.ws.close()
  })

  it('counts malformed client frames and answers them with INVALID_REQUEST', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.ws.send('{not json')
    q.send({ action: 'subscribe', market: 'crypto', symbols: 'BTCUSDT' })
    q.send({ action: 'dance' })
    for (let i = 0; i < 3; i++)
      expect(await q.next((f) => f.event === 'error')).toMatchObject({ code: 'INVALID_REQUEST' })
    expect(s.stats().malformedClientFrames).toBe(3)
    q.ws.close()
  })

  it('pushes 1m candles on the candle cadence', async () => {
    const s = await boot({ candleEveryMs: 30 })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'futures', symbols: ['ES1!'] })
    const c = await q.next((f) => f.type === 'candle')
    expect(c).toMatchObject({ symbol: 'ES1!', market: 'futures', interval: '1m' })
    expect((c.openTimeMs as number) % 60_000).toBe(0)
    expect(c.high as number).toBeGreaterThanOrEqual(c.low as number)
    q.ws.close()
  })
})

describe('heartbeat', () => {
  it('terminates a client that ignores app-level pings and keeps one that answers', async () => {
    // 200 ms to answer: at 40 ms a busy machine (a whole npm test under faketime) delayed the
    // polite client's pong past its deadline at least once.
    const s = await boot({ dialect: 'evented', heartbeatMs: 200 })
    const silent = await mustOpen(s.streamUrl, s.keys.pro)
    const polite = await mustOpen(s.streamUrl, s.keys.pro)
    polite.ws.on('message', (d) => {
      if (d.toString().includes('"ping"')) polite.send({ action: 'pong' })
    })
    expect(await silent.next((f) => f.event === 'ping')).toMatchObject({ event: 'ping' })
    expect((await closed(silent.ws)).code).toBe(1006)
    for (let i = 0; i < 3; i++) await polite.next((f) => f.event === 'ping')
    expect(polite.ws.readyState).toBe(polite.ws.OPEN)
    polite.ws.close()
  })

  it('sends protocol pings in the typed dialect, which ws clients answer by themselves', async () => {
    // A beat long enough for a loaded machine to answer within it (the pong is due by the next).
    const s = await boot({ heartbeatMs: 250 })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    let pings = 0
    q.ws.on('ping', () => pings++)
    while (pings < 4 && q.ws.readyState === q.ws.OPEN) await new Promise((r) => setTimeout(r, 10))
    expect(q.ws.readyState).toBe(q.ws.OPEN)
    expect(pings).toBeGreaterThanOrEqual(4)
    q.ws.close()
  })
})

describe('dialects', () => {
  it('evented: batch pushes with numbers as strings, iso bar times, clamped limits', async () => {
    const s = await boot({ dialect: 'evented', candleEveryMs: 30 })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT', 'ETHUSDT'] })
    const batch = await q.next((f) => f.event === 'ticker')
    const rows = batch.data as Record<string, unknown>[]
    expect(rows.map((r) => r.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT'])
    expect(typeof rows[0]?.last).toBe('string')
    expect(Number(rows[0]?.last)).toBeGreaterThan(0)
    expect(typeof rows[0]?.ts).toBe('number')
    const kline = await q.next((f) => f.event === 'kline')
    expect((kline.data as Record<string, unknown>[])[0]?.openTime).toMatch(/^\d{4}-\d\d-\d\dT/)
    const r = await getJson(
      s.url,
      '/api/v1/market/tv-futures/kline?symbol=ES1!&limit=9000',
      s.keys.pro,
    )
    const bars = (r.body as { data: { bars: Record<string, unknown>[] } }).data.bars
    expect(bars).toHaveLength(5000)
    expect(typeof bars[0]?.openTime).toBe('string')
    expect(typeof bars[0]?.open).toBe('number')
    const multi = INSTRUMENTS.filter((i) => MULTI.includes(i.market)).map((i) => i.symbol)
    expect(multi.length).toBeGreaterThan(50)
    const clamped = await getJson(
      s.url,
      `/api/v1/market/quote?symbols=${multi.join(',')}`,
      s.keys.pro,
    )
    expect((clamped.body as { data: unknown[] }).data).toHaveLength(50)
    q.ws.close()
  })

  it('compact: batch pushes with numbers and epoch-second bar times', async () => {
    const s = await boot({ dialect: 'compact' })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'cn', symbols: ['600519'] })
    const batch = await q.next((f) => f.event === 'ticker')
    expect(typeof (batch.data as Record<string, unknown>[])[0]?.last).toBe('number')
    const r = await getJson(
      s.url,
      '/api/v1/market/tv-futures/kline?symbol=GC1!&interval=1d&limit=2',
      s.keys.pro,
    )
    const bar = (r.body as { data: { bars: Record<string, number>[] } }).data.bars[0]!
    expect(bar.openTime! % 86_400).toBe(0)
    expect(bar.openTime!).toBeLessThan(Date.now() / 1000)
    q.ws.close()
  })

  it('accepts a custom Dialect object', async () => {
    const s = await boot({
      dialect: {
        push: 'single',
        numbersAsStrings: true,
        barTime: 'iso',
        heartbeat: 'ws-ping',
        outOfRange: 'clamp',
      },
    })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'commodity', symbols: ['XAUUSD'] })
    const t = await q.next((f) => f.type === 'tick')
    expect(typeof t.last).toBe('string')
    q.ws.close()
  })
})

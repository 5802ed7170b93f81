import { describe, expect, it } from 'vitest'
import { getJson, mustOpen, type Frame } from './testing/spec-client'
import { simBooter } from './testing/sim-boot'

/** The readings of the spec's open market names (behaviour.ts marketNames, unknownMarket). */
const boot = simBooter()

const isTick = (f: Frame): boolean => f.type === 'tick' || f.event === 'ticker'
const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe('a service that names its markets in its own words', () => {
  it('refuses the client words with an error frame naming no symbols, and streams under its own', async () => {
    const s = await boot({ behaviour: { marketNames: 'service' } })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'fx', symbols: ['EURUSD'] })
    expect(await q.next((f) => f.event === 'error')).toEqual({
      event: 'error',
      code: 'INVALID_REQUEST',
      msg: 'unknown market fx',
    })
    q.send({ action: 'subscribe', market: 'forex', symbols: ['EURUSD'] })
    expect(await q.next((f) => f.event === 'subscribed')).toMatchObject({ market: 'forex' })
    expect(await q.next(isTick)).toMatchObject({ symbol: 'EURUSD', market: 'forex' })
    for (const [name, symbol] of [
      ['spot', 'BTCUSDT'],
      ['futures_usdt', 'ETHUSDT'],
    ] as const) {
      q.send({ action: 'subscribe', market: name, symbols: [symbol] })
      expect(await q.next((f) => f.event === 'subscribed' && f.market === name)).toBeTruthy()
    }
    q.ws.close()
  })

  it('acks a market it does not know and then says nothing when it reads them silently', async () => {
    const s = await boot({ behaviour: { marketNames: 'service', unknownMarket: 'silent' } })
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT'] })
    expect(await q.next((f) => f.event === 'subscribed')).toMatchObject({ market: 'crypto' })
    await settle(200)
    expect(q.raw.filter((t) => t.includes('BTCUSDT') && !t.includes('subscribed'))).toEqual([])
    expect(s.streamedKeys().size).toBe(0)
    q.ws.close()
  })

  it('tags REST payloads with its own market words', async () => {
    const s = await boot({ behaviour: { marketNames: 'service' } })
    const multi = await getJson(s.url, '/api/v1/market/quote?symbols=EURUSD', s.keys.pro)
    expect((multi.body as { data: Frame[] }).data[0]).toMatchObject({ market: 'forex' })
    const kline = await getJson(
      s.url,
      '/api/v1/market/tv-futures/kline?symbol=ES1!&limit=1',
      s.keys.pro,
    )
    expect((kline.body as { data: Frame }).data).toMatchObject({ market: 'cont_futures' })
  })
})

describe('an account-level error frame on an open socket', () => {
  it('reaches every open socket, which stays open', async () => {
    const s = await boot()
    const q = await mustOpen(s.streamUrl, s.keys.pro)
    q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT'] })
    await q.next((f) => f.event === 'subscribed')
    s.faults.accountFrame('SUBSCRIPTION_EXPIRED')
    expect(await q.next((f) => f.event === 'error')).toEqual({
      event: 'error',
      code: 'SUBSCRIPTION_EXPIRED',
      msg: 'subscription expired',
    })
    expect(s.stats().wsOpen).toBe(1)
    q.ws.close()
  })
})

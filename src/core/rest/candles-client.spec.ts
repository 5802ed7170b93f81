import { afterEach, describe, expect, it } from 'vitest'
import { systemClock } from '../clock'
import { fetchCandles } from './candles-client'
import { seededRandom } from '../random'
import { RateGovernor } from './rate-governor'
import { RestClient } from './rest-client'
import { ok, startRestServer, type RestTestServer } from '../testing/rest-test-server'

let server: RestTestServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function client(): Promise<{ rest: RestClient; srv: RestTestServer }> {
  server = await startRestServer(() =>
    ok({
      symbol: 'ES1!',
      interval: '60',
      source: 'provider',
      market: 'futures',
      bars: [
        {
          openTimeMs: 1_767_625_200_000,
          closeTimeMs: 1_767_628_799_999,
          open: '5000',
          high: 5010,
          low: 4990,
          close: 5005,
          volume: 12,
        },
        {
          openTimeMs: 1_767_621_600_000,
          open: 4990,
          high: 5001,
          low: 4980,
          close: 5000,
          volume: 10,
        },
        { openTimeMs: 'garbage', open: 1, high: 1, low: 1, close: 1 },
      ],
    }),
  )
  const governor = new RateGovernor({ rpm: 600, clock: systemClock, random: seededRandom(1) })
  return {
    rest: new RestClient({ baseUrl: server.url, apiKey: 'key-candles-1', governor }),
    srv: server,
  }
}

describe('fetchCandles', () => {
  it('fetches futures klines with the wire interval and returns ascending, well-formed bars', async () => {
    const { rest, srv } = await client()
    const bars = await fetchCandles(rest, 'futures:es1!', '1h', 300)
    const q = srv.requests[0]
    expect(srv.requests[0]?.path).toBe('/api/v1/market/tv-futures/kline')
    expect([q?.query.get('symbol'), q?.query.get('interval'), q?.query.get('limit')]).toEqual([
      'ES1!',
      '60',
      '300',
    ])
    expect(bars.map((b) => b.openTime)).toEqual([1_767_621_600_000, 1_767_625_200_000])
    expect(bars[0]?.closeTime).toBe(1_767_621_600_000 + 3_600_000 - 1)
    expect(bars[1]?.open).toBe(5000)
  })

  it('clamps limit to 1..5000 client-side and routes agri to agri/kline', async () => {
    const { rest, srv } = await client()
    await fetchCandles(rest, 'futures:ES1!', '1m', 0)
    await fetchCandles(rest, 'agri:ZC1!', '1d', 99_999)
    expect(srv.requests.map((r) => r.query.get('limit'))).toEqual(['1', '5000'])
    expect(srv.requests[1]?.path).toBe('/api/v1/market/agri/kline')
    expect(srv.requests[1]?.query.get('interval')).toBe('1d')
  })

  it('says NOT_SUPPORTED for markets without a kline endpoint, without spending a request', async () => {
    const { rest, srv } = await client()
    await expect(fetchCandles(rest, 'crypto:BTCUSDT', '1m', 10)).rejects.toMatchObject({
      code: 'NOT_SUPPORTED',
    })
    await expect(fetchCandles(rest, 'nonsense', '1m', 10)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    expect(srv.requests).toHaveLength(0)
  })
})

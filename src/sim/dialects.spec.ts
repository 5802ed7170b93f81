import { describe, expect, it } from 'vitest'
import { candleFrames, DIALECTS, tickFrames, type Dialect } from './dialects'
import { nameOf } from './market-names'
import type { TickerQuote } from './market/price-walk'
import type { TickPush } from './push-layouts'

/** 2026-11-27 09:30 UTC: 17:30 in Shanghai. */
const AT = Date.UTC(2026, 10, 27, 9, 30)
const quote: TickerQuote = {
  ...{ symbol: 'BTCUSDT', last: 84_012.5, change: 30.19, changePercent: 0.0359, open: 83_900 },
  ...{ high: 84_100, low: 83_800, prevClose: 83_982.31, volume: 1_234.5, quoteVolume: 1e8 },
  ...{ bid: 84_012.4, ask: 84_012.6, bidSize: 1.5, askSize: 2, openTime: AT - 3_600_000 },
  ...{ closeTime: AT, trades: 5_000 },
}
const tick: TickPush = {
  ...{ symbol: 'BTCUSDT', market: 'usdt-futures', last: 84_012.5, bid: 84_012.4 },
  ...{ ask: 84_012.6, change: 30.19, ts: AT, quote },
}
const one = (d: Dialect, t: TickPush = tick): Record<string, unknown> =>
  JSON.parse(tickFrames(d, [t], (m) => nameOf({ marketNames: 'service' }, m))[0] ?? '{}')

describe('push market words', () => {
  it("names the market in the client's words by default, in the service's own or not at all when asked", () => {
    expect(one(DIALECTS.typed).market).toBe('usdt-futures')
    expect(one({ ...DIALECTS.typed, pushMarkets: 'service' }).market).toBe('futures_usdt')
    expect(one({ ...DIALECTS.typed, pushMarkets: 'none' })).not.toHaveProperty('market')
  })
})

describe('push layouts', () => {
  it('writes the 24-hour ticker with string figures: c the last price, p its change', () => {
    const item = one({ ...DIALECTS.typed, layout: 'ticker24h', numbersAsStrings: true })
    expect(item).toMatchObject({ e: '24hrTicker', s: 'BTCUSDT', c: '84012.5', p: '30.19' })
    expect(item).toMatchObject({ b: '84012.4', a: '84012.6', o: '83900', x: '83982.31' })
    expect(item).not.toHaveProperty('last')
  })

  it('writes bid and ask only, with no last, under bid-ask', () => {
    const item = one({ ...DIALECTS.typed, layout: 'bid-ask' })
    expect(Object.keys(item).sort()).toEqual(['ask', 'bid', 'market', 'symbol', 'ts', 'type'])
  })

  it('writes the service’s own keys under own-a and own-b', () => {
    expect(one({ ...DIALECTS.typed, layout: 'own-a' })).toMatchObject({
      instrument: 'BTCUSDT',
      px_last: 84_012.5,
    })
    expect(one({ ...DIALECTS.typed, layout: 'own-b' })).toMatchObject({
      sym: 'BTCUSDT',
      lp: 84_012.5,
    })
  })
})

describe('push values', () => {
  it('groups thousands, writes venue wall-clock times and other spellings when asked', () => {
    const cn: TickPush = { ...tick, symbol: '600519', market: 'cn', last: 1_502.5 }
    const item = one(
      { ...DIALECTS.typed, groupedNumbers: true, localTimes: true, spelling: 'venue' },
      cn,
    )
    expect(item).toMatchObject({
      symbol: '600519.SH',
      last: '1,502.5',
      ts: '2026-11-27T17:30:00.000',
    })
    expect(one({ ...DIALECTS.typed, spelling: 'dashed' }).symbol).toBe('BTC-USDT')
  })

  it('wraps each push in the REST envelope when asked', () => {
    const framed = one({ ...DIALECTS.typed, envelope: true })
    expect(framed).toMatchObject({
      succ: true,
      code: '0',
      data: { type: 'tick', symbol: 'BTCUSDT' },
    })
  })

  it('writes candle bars as arrays when asked', () => {
    const bar = {
      openTime: AT,
      closeTime: AT + 59_999,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 7,
    }
    const d = { ...DIALECTS.typed, candleArrays: true }
    const [frame] = candleFrames(d, [{ symbol: 'BTCUSDT', market: 'crypto', interval: '1m', bar }])
    expect(JSON.parse(frame ?? '{}')).toEqual({
      event: 'kline',
      symbol: 'BTCUSDT',
      market: 'crypto',
      interval: '1m',
      data: [[AT, 1, 2, 0.5, 1.5, 7]],
    })
  })
})

import { describe, expect, it } from 'vitest'
import { bucketStart } from '../../shared/intervals'
import { INTERVALS } from '../../shared/quote'
import { parseBars, quoteTime, toEpochMs } from './bar-time'
import { CandleBuilder } from './candle-builder'
import { parseFrame } from '../push/push-parser'
import { AGRI_FALLBACK, klineRoute, quoteRoute } from '../rest/market-routes'
import { parseTickerQuotes } from '../rest/ticker-quote'

const T = Date.UTC(2026, 0, 5, 14, 0) // 1_767_621_600_000

describe('bar-time', () => {
  it.each([
    ['an ISO string', '2026-01-05T14:00:00Z'],
    ['an ISO string with offset', '2026-01-05T22:00:00+08:00'],
    ['epoch ms', T],
    ['epoch seconds', T / 1000],
    ['a numeric string of ms', String(T)],
    ['a numeric string of seconds', String(T / 1000)],
    ['epoch microseconds', T * 1000],
  ])('normalises %s to epoch ms', (_name, value) => {
    expect(toEpochMs(value)).toBe(T)
  })

  it('returns null for values that are not times', () => {
    for (const v of [null, undefined, '', 'soon', {}, -5, 0, Number.NaN])
      expect(toEpochMs(v)).toBeNull()
  })

  it('reads openTime/openTimeMs and closeTime/closeTimeMs, filling a missing close from the interval', () => {
    const { bars, skipped } = parseBars(
      [
        {
          openTime: T / 1000,
          closeTime: T / 1000 + 59,
          open: 1,
          high: 2,
          low: 0.5,
          close: 1.5,
          volume: 3,
        },
        { openTimeMs: T + 60_000, open: '1.5', high: '2', low: '1', close: '1.8' },
      ],
      '1m',
    )
    expect(skipped).toBe(0)
    expect(bars).toEqual([
      { openTime: T, closeTime: T + 59_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 3 },
      {
        openTime: T + 60_000,
        closeTime: T + 119_999,
        open: 1.5,
        high: 2,
        low: 1,
        close: 1.8,
        volume: 0,
      },
    ])
  })

  it('skips malformed bars, sorts ascending and keeps one bar per open time', () => {
    const good = { open: 1, high: 2, low: 1, close: 2, volume: 1 }
    const { bars, skipped } = parseBars(
      [
        { ...good, openTime: '2026-01-05T14:05:00Z' },
        { ...good, openTime: T },
        { ...good, openTime: T, close: 1.5 },
        { ...good, openTime: 'yesterday' },
        { ...good, openTime: T, high: 0 },
        { openTime: T, open: 1, high: 2, low: 1 },
        'bar',
        null,
      ],
      '5m',
    )
    expect(bars.map((b) => [b.openTime, b.close])).toEqual([
      [T, 1.5],
      [T + 300_000, 2],
    ])
    expect(skipped).toBe(5)
    expect(parseBars('nope', '1m')).toEqual({ bars: [], skipped: 0 })
  })
})

describe('one bar rule for REST bars, pushed candles and bars built from ticks', () => {
  it.each(INTERVALS)('a %s bar without a close closes at the same instant on every path', (iv) => {
    const openTime = bucketStart(iv, T)
    const bar = { open: 1, high: 2, low: 0.5, close: 1.5, volume: 3 }
    const rest = parseBars([{ openTime, ...bar }], iv).bars[0]?.closeTime
    const [pushed] = parseFrame(
      JSON.stringify({ type: 'candle', symbol: 'X', interval: iv, openTime, ...bar }),
      T + 60_000,
    )
    const builder = new CandleBuilder()
    builder.add('crypto:X', openTime, 1)
    const built = builder.bars('crypto:X', iv, 1)[0]?.closeTime
    expect(pushed).toMatchObject({ kind: 'candle', interval: iv })
    expect(pushed?.kind === 'candle' ? pushed.bar.closeTime : null).toBe(rest)
    expect(built).toBe(rest)
    expect(rest).toBeGreaterThan(openTime)
  })

  it("closes a pushed monthly candle at the month's end, not at its open", () => {
    const open = Date.UTC(2025, 11, 1)
    const [f] = parseFrame(
      JSON.stringify({ e: 'kline', s: 'X', k: { t: open, i: '1M', o: 1, h: 1, l: 1, c: 1 } }),
      T,
    )
    expect(f).toMatchObject({ interval: '1mo', bar: { closeTime: Date.UTC(2026, 0, 1) - 1 } })
  })
})

describe('quote time', () => {
  it('never dates a quote after it was received (a window closing at the end of the day)', () => {
    const endOfDay = Date.UTC(2026, 0, 5, 23, 59, 59, 999)
    expect(quoteTime(endOfDay, T)).toBe(T)
    expect(quoteTime(T - 5_000, T)).toBe(T - 5_000)
    expect(quoteTime('soon', T)).toBeNull()
  })
})

describe('ticker-quote', () => {
  it('parses TickerQuotes with string numbers, ignores unknown fields and skips entries without a symbol', () => {
    const { updates, skipped } = parseTickerQuotes(
      [
        {
          symbol: 'btcusdt',
          last: '64000.5',
          prevClose: 63000,
          bid: 63999,
          volume: '12',
          closeTime: T / 1000,
          extra: 'x',
        },
        { last: 1 },
        { symbol: '', last: 2 },
        7,
      ],
      'usdt-futures',
      T + 1_000,
    )
    expect(skipped).toBe(3)
    expect(updates).toEqual([
      {
        market: 'usdt-futures',
        symbol: 'BTCUSDT',
        fields: { last: 64000.5, prevClose: 63000, bid: 63999, volume: 12 },
        ts: T,
        source: 'poll',
      },
    ])
  })

  it('leaves change empty for the store to derive and ts null without closeTime', () => {
    const [u] = parseTickerQuotes(
      [{ symbol: 'EURUSD', last: 1.08, prevClose: 1.07 }],
      'fx',
      T,
    ).updates
    expect(u?.fields.change).toBeUndefined()
    expect(u?.ts).toBeNull()
  })

  it('reads a multi-market answer keyed by symbol, and a chart-platform prefix on the symbol', () => {
    // spec: Listed endpoints without detail, the multi-market quote's response fields are "not
    // shown"; symbols may be given as a chart-platform symbol.
    const byKey = parseTickerQuotes({ EURUSD: { last: 1.08 }, XAUUSD: { price: '2300' } }, 'fx', T)
    expect(byKey.updates.map((u) => [u.symbol, u.fields.last])).toEqual([
      ['EURUSD', 1.08],
      ['XAUUSD', 2300],
    ])
    const prefixed = parseTickerQuotes([{ symbol: 'OANDA:EURUSD', last: 1.08 }], 'fx', T)
    expect(prefixed.updates[0]?.symbol).toBe('EURUSD')
  })

  it('rejects a payload that is not a list as BAD_RESPONSE', () => {
    expect(() => parseTickerQuotes('oops', 'crypto', T)).toThrow(
      expect.objectContaining({ code: 'BAD_RESPONSE' }),
    )
  })
})

describe('market-routes', () => {
  it('routes quotes and klines per the spec', () => {
    expect(quoteRoute('crypto')?.path).toBe('/api/v1/market/crypto/quote')
    expect(quoteRoute('usdt-futures')?.path).toBe('/api/v1/market/futures/quote')
    // Agriculture is a commodity: the multi-market quote; its kline is the fallback.
    for (const m of ['futures', 'fx', 'commodity', 'cn', 'hk', 'index', 'agri'] as const) {
      expect(quoteRoute(m)).toEqual({ path: '/api/v1/market/quote', family: 'multi' })
    }
    expect(AGRI_FALLBACK).toEqual({ path: '/api/v1/market/agri/kline', family: 'agri-kline' })
    expect(klineRoute('futures')?.path).toBe('/api/v1/market/tv-futures/kline')
    expect(klineRoute('crypto')).toBeNull()
  })
})

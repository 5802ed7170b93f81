import { describe, expect, it } from 'vitest'
import { learnedReading } from '../push/field-reading'
import type { QuoteFields } from '../quotes/quote-fields'
import { learnReading } from './reading-learner'

/** A REST quote (spec: TickerQuote), and pushes of the same symbol a step later. */
const REST: QuoteFields = {
  ...{ last: 84_012.5, change: 30.2, changePercent: 0.036, open: 83_900, high: 84_100 },
  ...{ low: 83_800, prevClose: 83_982.3, volume: 1_234.5, quoteVolume: 1e8 },
  ...{ bid: 84_012.4, ask: 84_012.6, bidSize: 1.5, askSize: 2, trades: 5_000 },
}
const MS = Date.UTC(2026, 10, 27, 9, 30)

describe('learnReading: a push held against the REST quote of the same symbol', () => {
  it('reads the 24-hour ticker: c is the last price, p its change, whatever p means elsewhere', () => {
    const push = {
      ...{ e: '24hrTicker', E: MS, s: 'BTCUSDT', p: '37.8', P: '0.045', w: '83970.8' },
      ...{ x: '83982.3', c: '84020.1', Q: '0.5', b: '84020.0', B: '1.5', a: '84020.2' },
      ...{ A: '2', o: '83900', h: '84100', l: '83800', v: '1235', q: '100000000', O: MS - 1 },
      ...{ C: MS, F: 1_005_000, L: 1_010_000, n: 5_001 },
    }
    const learned = learnReading(push, REST, 'BTCUSDT')
    expect(learned?.keys).toMatchObject({ last: 'c', change: 'p', changePercent: 'P', bid: 'b' })
    expect(learned?.keys).toMatchObject({
      ask: 'a',
      open: 'o',
      high: 'h',
      low: 'l',
      prevClose: 'x',
    })
    expect(learned?.keys).toMatchObject({ volume: 'v', quoteVolume: 'q', trades: 'n' })
    expect(learnedReading(learned?.keys ?? {}).pick(push)).toMatchObject({
      last: 84_020.1,
      change: 37.8,
    })
  })

  it('never reads a key named ask (or bid) as the last when the price jumped between the two', () => {
    // The quote just before a 1 % drop, the push just after (the render bench's feed at its
    // 10 s wrap): no named key agrees, and the ask alone lies near the quote's last.
    const before: QuoteFields = { last: 100.99, bid: 100.49, ask: 101.49, prevClose: 100 }
    const after = { symbol: 'S0', market: 'crypto', last: 100.01, bid: 99.51, ask: 100.51 }
    const learned = learnReading({ ...after, volume: 1_000_001, ts: MS }, before, 'S0')
    expect(learned?.keys.last).not.toBe('ask')
    expect(learned).toBeNull()
    // The next pair, taken without a jump between, teaches the names.
    const calm = { ...after, last: 100.02, bid: 99.52, ask: 100.52, volume: 1_000_002, ts: MS }
    const next: QuoteFields = { last: 100.02, bid: 99.52, ask: 100.52, prevClose: 100 }
    expect(learnReading(calm, next, 'S0')?.keys).toMatchObject({
      last: 'last',
      bid: 'bid',
      ask: 'ask',
    })
  })

  it('finds no price in a push of bid and ask only, when REST quotes a last', () => {
    expect(
      learnReading({ symbol: 'BTCUSDT', bid: 84_020, ask: 84_020.2, ts: MS }, REST, 'BTCUSDT'),
    ).toBeNull()
  })

  it('reads keys of a service’s own by value: the prices by rank, the change and volume by size', () => {
    const a = { instrument: 'BTCUSDT', venue: 'spot', px_last: '84,020.1', px_chg: 37.8 }
    const learned = learnReading(
      { ...a, px_bid: 84_020, px_ask: 84_020.2, qty_day: 1_235, time: 'x' },
      REST,
      'BTCUSDT',
    )
    expect(learned?.keys).toEqual({
      last: 'px_last',
      change: 'px_chg',
      volume: 'qty_day',
      bid: 'px_bid',
      ask: 'px_ask',
    })
    const b = { sym: 'BTCUSDT', lp: 84_020.1, ch: 37.8, chp: 0.045, vol: 1_235, t: MS }
    expect(learnReading(b, REST, 'BTCUSDT')?.keys).toMatchObject({
      last: 'lp',
      change: 'ch',
      changePercent: 'chp',
    })
  })

  it('takes a price of a stock code’s own digits as no figure (600519 is the symbol, not a price)', () => {
    const rest: QuoteFields = { last: 600_519.5 }
    expect(learnReading({ code: '600519', p: 600_520 }, rest, '600519')?.keys).toEqual({
      last: 'p',
    })
  })

  it('learns a mid-priced reading where REST quotes bid and ask only', () => {
    const rest: QuoteFields = { bid: 1.0841, ask: 1.0843 }
    expect(learnReading({ pair: 'EURUSD', b: 1.0842, a: 1.0844 }, rest, 'EURUSD')).toEqual({
      keys: { bid: 'b', ask: 'a' },
      basis: 'mid',
    })
  })
})

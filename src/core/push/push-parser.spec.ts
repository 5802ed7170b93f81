import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FrameBuffer, parseFrame } from './push-parser'

const NOW = Date.UTC(2026, 0, 5, 14, 30)
const parse = (v: unknown): ReturnType<typeof parseFrame> =>
  parseFrame(typeof v === 'string' ? v : JSON.stringify(v), NOW)

describe('parseFrame: ticks', () => {
  it.each(['type', 'event', 'e', 'channel'])('reads the kind from the %s field', (field) => {
    const item = { [field]: 'tick', symbol: 'BTCUSDT', last: 1 }
    const [f] = parse(item)
    expect(f).toEqual({
      kind: 'tick',
      market: null,
      symbol: 'BTCUSDT',
      fields: { last: 1 },
      ts: null,
      raw: item,
      local: false,
    })
  })

  it.each([
    'tick',
    'ticker',
    'quote',
    'trade',
    'TICKER',
    '24hrTicker',
    'ticker.BTCUSDT',
    'btcusdt@ticker',
  ])('treats %s as a tick', (name) => {
    expect(parse({ type: name, symbol: 'X', price: 2 })[0]).toMatchObject({
      kind: 'tick',
      fields: { last: 2 },
    })
  })

  it('accepts numbers as strings, s/m/t short names and upper-cases the symbol', () => {
    const [f] = parse({ e: 'ticker', s: 'ethusdt', m: 'crypto', t: NOW, c: '3100.5', v: '12' })
    expect(f).toMatchObject({
      kind: 'tick',
      market: 'crypto',
      symbol: 'ETHUSDT',
      fields: { last: 3100.5, volume: 12 },
      ts: NOW,
    })
  })

  it('reads the symbol from code on pushes', () => {
    expect(parse({ type: 'quote', code: 'EURUSD', market: 'fx', bid: 1.1 })[0]).toMatchObject({
      symbol: 'EURUSD',
      market: 'fx',
      fields: { bid: 1.1 },
    })
  })

  it.each([
    ['ts', NOW / 1000, NOW],
    ['time', NOW, NOW],
    ['timestamp', `${NOW}`, NOW],
    ['ts', NOW * 1000, NOW],
    ['time', new Date(NOW).toISOString(), NOW],
  ])('reads %s=%s as epoch ms', (field, value, expected) => {
    expect(parse({ type: 'tick', symbol: 'X', last: 1, [field]: value })[0]).toMatchObject({
      ts: expected,
    })
  })

  it('drops implausible timestamps (trade ids in t) so receive time is used', () => {
    expect(parse({ e: 'trade', s: 'X', price: 1, t: 12345 })[0]).toMatchObject({ ts: null })
  })

  it('ignores a market it does not know instead of guessing', () => {
    expect(parse({ type: 'tick', symbol: 'X', last: 1, market: 'mars' })[0]).toMatchObject({
      market: null,
    })
  })

  it('reads an array of ticks, a {data:[...]} envelope and a {data:{...}} envelope', () => {
    const arr = parse([
      { type: 'tick', symbol: 'A', last: 1 },
      { type: 'tick', symbol: 'B', last: 2 },
    ])
    const env = parse({
      type: 'ticker',
      market: 'crypto',
      data: [
        { symbol: 'A', last: 1 },
        { s: 'B', c: 2 },
      ],
    })
    const one = parse({ channel: 'quote', type: 'update', data: { symbol: 'A', last: 1 } })
    expect(arr.map((f) => f.kind)).toEqual(['tick', 'tick'])
    expect(env).toMatchObject([
      { kind: 'tick', market: 'crypto', symbol: 'A', fields: { last: 1 }, ts: null },
      { kind: 'tick', market: 'crypto', symbol: 'B', fields: { last: 2 }, ts: null },
    ])
    expect(one).toMatchObject([{ kind: 'tick', symbol: 'A', fields: { last: 1 } }])
  })

  it('infers ticks from an untyped {succ, data} envelope and a Binance-style combined stream', () => {
    expect(parse({ succ: true, data: [{ symbol: 'A', last: '5' }] })[0]).toMatchObject({
      kind: 'tick',
      fields: { last: 5 },
    })
    expect(
      parse({ stream: 'x@ticker', data: { e: '24hrTicker', s: 'BTCUSDT', c: '1' } })[0],
    ).toMatchObject({ kind: 'tick', symbol: 'BTCUSDT' })
  })

  it('reports a tick without a symbol or without numbers as malformed', () => {
    expect(parse({ type: 'tick', last: 1 })[0]).toMatchObject({ kind: 'malformed' })
    expect(parse({ type: 'tick', symbol: 5, last: 1 })[0]).toMatchObject({ kind: 'malformed' })
    expect(parse({ type: 'tick', symbol: 'X', last: 'abc' })[0]).toMatchObject({
      kind: 'malformed',
    })
  })
})

describe('parseFrame: candles', () => {
  it.each(['candle', 'kline', 'bar', 'kline_1m'])('treats %s as a candle', (name) => {
    const [f] = parse({
      type: name,
      symbol: 'BTCUSDT',
      interval: '1m',
      openTime: NOW,
      open: 1,
      high: '3',
      low: 0.5,
      close: 2,
      volume: 10,
    })
    expect(f).toEqual({
      kind: 'candle',
      market: null,
      symbol: 'BTCUSDT',
      interval: '1m',
      bar: {
        openTime: NOW,
        closeTime: NOW + 59_999,
        open: 1,
        high: 3,
        low: 0.5,
        close: 2,
        volume: 10,
      },
    })
  })

  it('reads a Binance-style nested k bar with string numbers and Ms time fields', () => {
    const [f] = parse({
      e: 'kline',
      s: 'ETHUSDT',
      k: { t: NOW, T: NOW + 59_999, i: '1m', o: '1', h: '2', l: '0.5', c: '1.5', v: '7' },
    })
    expect(f).toMatchObject({
      kind: 'candle',
      interval: '1m',
      bar: {
        openTime: NOW,
        closeTime: NOW + 59_999,
        open: 1,
        high: 2,
        low: 0.5,
        close: 1.5,
        volume: 7,
      },
    })
    const [g] = parse({
      type: 'bar',
      symbol: 'X',
      openTimeMs: `${NOW}`,
      closeTimeMs: NOW + 1,
      open: 1,
      high: 1,
      low: 1,
      close: 1,
    })
    expect(g).toMatchObject({ bar: { openTime: NOW, closeTime: NOW + 1, volume: 0 } })
  })

  it('reports a candle without OHLC as malformed', () => {
    expect(parse({ type: 'kline', symbol: 'X', openTime: NOW, open: 1 })[0]).toMatchObject({
      kind: 'malformed',
    })
  })
})

describe('parseFrame: control frames', () => {
  // The answer carries `action` too: the client's own messages are written with it (spec:
  // WebSocket stream), and a service may read its pongs as it reads them.
  it.each([
    [{ event: 'ping' }, { event: 'pong', action: 'pong' }],
    [
      { type: 'ping', ts: 5 },
      { type: 'pong', action: 'pong', ts: 5 },
    ],
    [{ op: 'ping' }, { op: 'pong', action: 'pong' }],
    [
      { action: 'ping', id: 3 },
      { action: 'pong', id: 3 },
    ],
    [{ ping: 1700 }, { pong: 1700 }],
  ])('answers the app-level ping %j with %j', (frame, reply) => {
    const [f] = parse(frame)
    expect(f?.kind).toBe('ping')
    expect(f?.kind === 'ping' && f.reply !== null ? JSON.parse(f.reply) : null).toEqual(reply)
  })

  it('answers a plain-text ping and reads plain and JSON pongs', () => {
    expect(parse('ping')).toEqual([{ kind: 'ping', reply: 'pong' }])
    expect(parse('pong')).toEqual([{ kind: 'pong' }])
    expect(parse({ op: 'pong' })).toEqual([{ kind: 'pong' }])
    expect(parse({ type: 'heartbeat' })).toEqual([{ kind: 'ping', reply: null }])
  })

  it('reads subscribe acks with their market and symbols', () => {
    expect(
      parse({ event: 'subscribed', market: 'crypto', symbols: ['btcusdt', 'ETHUSDT'] }),
    ).toEqual([{ kind: 'subscribed', market: 'crypto', symbols: ['BTCUSDT', 'ETHUSDT'] }])
    expect(parse({ type: 'subscribe', data: { market: 'fx', symbols: ['EURUSD'] } })).toEqual([
      { kind: 'subscribed', market: 'fx', symbols: ['EURUSD'] },
    ])
  })

  it('reads error frames with code, message and symbols in their common shapes', () => {
    expect(parse({ type: 'error', code: 'WS_CONN_LIMIT', msg: 'cap reached' })).toEqual([
      { kind: 'error', code: 'WS_CONN_LIMIT', message: 'cap reached', symbols: [] },
    ])
    expect(
      parse({ event: 'error', error: { code: 'UNKNOWN_SYMBOL', message: 'no', symbols: ['ZZZ'] } }),
    ).toEqual([{ kind: 'error', code: 'UNKNOWN_SYMBOL', message: 'no', symbols: ['ZZZ'] }])
    expect(parse({ succ: false, code: 'MARKET_NOT_ENABLED', msg: 'm' })[0]).toMatchObject({
      kind: 'error',
      code: 'MARKET_NOT_ENABLED',
    })
    expect(
      parse({ event: 'subscribe', success: false, code: 'UNKNOWN_SYMBOL', symbols: ['Q'] })[0],
    ).toMatchObject({ kind: 'error', code: 'UNKNOWN_SYMBOL', symbols: ['Q'] })
    expect(parse({ type: 'error' })[0]).toMatchObject({ kind: 'error', code: 'UNSPECIFIED' })
  })

  it('ignores frames it does not know', () => {
    expect(parse({ type: 'welcome', version: 1 })).toEqual([{ kind: 'ignored' }])
    expect(parse({ type: 'news', headline: 'x' })).toEqual([{ kind: 'ignored' }])
    expect(parse({ event: 'unsubscribed', symbols: ['A'] })).toEqual([{ kind: 'ignored' }])
    expect(parse([])).toEqual([{ kind: 'ignored' }])
  })
})

describe('parseFrame: malformed input', () => {
  it('reports bad JSON and non-object values as malformed', () => {
    expect(parse('{"type":"tick",')).toEqual([{ kind: 'malformed', reason: 'invalid JSON' }])
    expect(parse('42')[0]?.kind).toBe('malformed')
    expect(parse('null')[0]?.kind).toBe('malformed')
    expect(parse([1, { type: 'tick', symbol: 'A', last: 1 }]).map((f) => f.kind)).toEqual([
      'malformed',
      'tick',
    ])
  })

  it('accepts a Buffer', () => {
    expect(parseFrame(Buffer.from('{"type":"tick","symbol":"A","last":1}'), NOW)[0]?.kind).toBe(
      'tick',
    )
  })

  it('never throws on arbitrary strings or JSON values', () => {
    const frames = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          type: fc.constantFrom('tick', 'kline', 'ping', 'error', 'subscribed', 'x'),
          symbol: fc.anything(),
          data: fc.anything(),
          last: fc.anything(),
          k: fc.anything(),
          code: fc.anything(),
          error: fc.anything(),
        })
        .map((v) => {
          try {
            return JSON.stringify(v) ?? ''
          } catch {
            return ''
          }
        }),
    )
    fc.assert(
      fc.property(frames, (text) => {
        const out = parseFrame(text, NOW)
        expect(out.length).toBeGreaterThan(0)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('parseFrame into a FrameBuffer (the stream client’s reuse contract)', () => {
  const frame = (...ticks: Array<[string, number]>): string =>
    JSON.stringify({ type: 'ticker', data: ticks.map(([s, last]) => ({ s, last })) })

  it('gives the same results as a fresh parse, frame after frame', () => {
    const into = new FrameBuffer()
    for (const text of [frame(['A', 1], ['B', 2]), '{"type":"pong"}', frame(['C', 3]), 'nope']) {
      expect(parseFrame(text, Date.now(), into)).toEqual(parseFrame(text, Date.now()))
    }
  })

  it('reuses its tick objects on the next parse, but a kept fields object keeps its values', () => {
    const into = new FrameBuffer()
    const first = parseFrame(frame(['A', 1], ['B', 2]), Date.now(), into)
    const kept = first.map((f) => (f.kind === 'tick' ? f.fields : null))
    const firstTick = first[0]
    const second = parseFrame(frame(['C', 3]), Date.now(), into)
    expect(second).toMatchObject([
      { kind: 'tick', market: null, symbol: 'C', fields: { last: 3 }, ts: null },
    ])
    expect(second[0]).toBe(firstTick) // reused: a caller must copy what it keeps
    expect(kept).toEqual([{ last: 1 }, { last: 2 }])
  })
})

import { describe, expect, it } from 'vitest'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { seededRandom, type Random } from '../random'
import type { StreamCandle } from './stream-client'
import { subs, useStreamClientFixture } from '../testing/stream-client-fixture'
import { waitUntil } from '../testing/ws-test-server'

const fx = useStreamClientFixture()
const { makeClient, conn, untilOpen, untilConnections } = fx
const w = fx.live

describe('StreamClient subscriptions', () => {
  it('opens exactly one socket with the API key and batches subscriptions per market', async () => {
    const c = makeClient()
    c.setSubscriptions(
      subs([
        ['crypto', ['BTCUSDT', 'ETHUSDT']],
        ['fx', ['EURUSD']],
      ]),
    )
    c.start()
    c.start()
    await untilOpen(c)
    await waitUntil(() => conn(0).messages.length >= 2, 'subscribe messages')
    c.setSubscriptions(
      subs([
        ['crypto', ['BTCUSDT', 'ETHUSDT']],
        ['fx', ['EURUSD']],
      ]),
    )
    await new Promise((r) => setTimeout(r, 20))
    expect(w.server.upgrades).toHaveLength(1)
    expect(w.server.upgrades[0]?.['x-api-key']).toBe('test-key-1234')
    expect(w.budget.handshakes).toBe(1)
    expect(conn(0).messages).toEqual([
      { action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT', 'ETHUSDT'] },
      { action: 'subscribe', market: 'fx', symbols: ['EURUSD'] },
    ])
  })

  it('unsubscribes symbols that leave the set, before subscribing new ones', async () => {
    const c = makeClient()
    c.setSubscriptions(
      subs([
        ['crypto', ['A', 'B']],
        ['fx', ['EURUSD']],
      ]),
    )
    c.start()
    await waitUntil(() => w.server.connections[0]?.messages.length === 2, 'initial subscribe')
    c.setSubscriptions(subs([['crypto', ['B', 'C']]]))
    await waitUntil(() => conn(0).messages.length === 5, 'diff messages')
    expect(conn(0).messages.slice(2)).toEqual([
      { action: 'unsubscribe', market: 'crypto', symbols: ['A'] },
      { action: 'unsubscribe', market: 'fx', symbols: ['EURUSD'] },
      { action: 'subscribe', market: 'crypto', symbols: ['C'] },
    ])
  })
})

describe('StreamClient frames', () => {
  it('routes ticks without a market to the subscription market and emits candles', async () => {
    const c = makeClient()
    const ticks: QuoteUpdate[] = []
    const candles: StreamCandle[] = []
    c.on('tick', (t) => ticks.push({ ...t })) // the update object is reused: copy it
    c.on('candle', (k) => candles.push(k))
    c.setSubscriptions(subs([['usdt-futures', ['BTCUSDT']]]))
    c.start()
    await untilConnections(1)
    conn(0).socket.send(JSON.stringify({ type: 'ticker', data: [{ s: 'btcusdt', c: '101.5' }] }))
    conn(0).socket.send(
      JSON.stringify({
        type: 'kline',
        symbol: 'BTCUSDT',
        interval: '1m',
        t: w.clock.now(),
        o: 1,
        h: 2,
        l: 1,
        c: 2,
      }),
    )
    await waitUntil(() => candles.length === 1, 'candle')
    expect(ticks).toEqual([
      {
        market: 'usdt-futures',
        symbol: 'BTCUSDT',
        fields: { last: 101.5 },
        ts: null,
        source: 'stream',
        receivedAt: w.clock.now(),
      },
    ])
    expect(candles[0]).toMatchObject({ market: 'usdt-futures', symbol: 'BTCUSDT', interval: '1m' })
  })

  it('routes a scanned symbol by the subscriptions as they are now, not as its handle last saw them', async () => {
    const c = makeClient()
    const ticks: string[] = []
    c.on('tick', (t) => ticks.push(`${t.market}:${t.symbol}:${t.fields.last}`))
    c.setSubscriptions(subs([['crypto', ['ROUTEA', 'ROUTEB']]]))
    c.start()
    await untilConnections(1)
    // The batch dialect the push scanner reads (its symbol handles cache the route).
    const batch = (last: number): string =>
      JSON.stringify({
        event: 'ticker',
        data: [
          { symbol: 'ROUTEA', market: 'crypto', last },
          { symbol: 'ROUTEB', market: 'crypto', last },
        ],
      })
    conn(0).socket.send(batch(1))
    await waitUntil(() => ticks.length === 2, 'first batch')
    c.setSubscriptions(subs([['crypto', ['ROUTEB']]]))
    conn(0).socket.send(batch(2))
    await waitUntil(() => ticks.length === 3, 'second batch')
    conn(0).socket.send(batch(3))
    await waitUntil(() => ticks.length === 4, 'third batch')
    expect(ticks).toEqual([
      'crypto:ROUTEA:1',
      'crypto:ROUTEB:1',
      'crypto:ROUTEB:2',
      'crypto:ROUTEB:3',
    ])
  })

  it('hands each tick of a batch its own fields, which a listener may keep across later ticks', async () => {
    const c = makeClient()
    const keptFields: QuoteUpdate['fields'][] = []
    const seen: string[] = []
    c.on('tick', (t) => {
      keptFields.push(t.fields)
      seen.push(`${t.market}:${t.symbol}@${t.receivedAt}`)
    })
    c.setSubscriptions(subs([['crypto', ['A', 'B']]]))
    c.start()
    await untilConnections(1)
    const at = w.clock.now()
    conn(0).socket.send(
      JSON.stringify({
        type: 'ticker',
        market: 'crypto',
        data: [
          { s: 'A', c: 1 },
          { s: 'B', c: 2 },
        ],
      }),
    )
    conn(0).socket.send(JSON.stringify({ type: 'tick', symbol: 'A', last: 3, bid: 2.5 }))
    await waitUntil(() => keptFields.length === 3, 'three ticks')
    expect(keptFields).toEqual([{ last: 1 }, { last: 2 }, { last: 3, bid: 2.5 }])
    expect(seen).toEqual([`crypto:A@${at}`, `crypto:B@${at}`, `crypto:A@${at}`])
  })

  it('skips and counts malformed frames without dropping the connection', async () => {
    const c = makeClient()
    c.setSubscriptions(subs([['crypto', ['A']]]))
    c.start()
    await untilConnections(1)
    conn(0).socket.send('{not json')
    conn(0).socket.send(JSON.stringify({ type: 'tick', last: 1 }))
    conn(0).socket.send(Buffer.from([0xff, 0x00, 0x13]))
    conn(0).socket.send(JSON.stringify({ type: 'tick', symbol: 'A', last: 1 }))
    await waitUntil(() => c.stats().framesIn === 4, 'four frames')
    expect(c.stats()).toMatchObject({ malformed: 3, ticksIn: 1, framesIn: 4 })
    expect(c.state()).toBe('open')
  })

  it('answers app-level pings with the reply the frame asks for', async () => {
    const c = makeClient()
    c.start()
    await untilConnections(1)
    conn(0).socket.send(JSON.stringify({ event: 'ping' }))
    await waitUntil(() => conn(0).messages.length === 1, 'pong')
    expect(conn(0).messages[0]).toEqual({ event: 'pong', action: 'pong' })
  })

  it('reports symbol errors without treating them as connection errors', async () => {
    const c = makeClient()
    const symbolErrors: unknown[] = []
    c.on('symbolError', (e) => symbolErrors.push(e))
    c.setSubscriptions(subs([['fx', ['NOPE']]]))
    c.start()
    await untilConnections(1)
    conn(0).socket.send(
      JSON.stringify({ type: 'error', code: 'UNKNOWN_SYMBOL', msg: 'x', symbols: ['NOPE'] }),
    )
    await waitUntil(() => symbolErrors.length === 1, 'symbol error')
    expect(symbolErrors[0]).toEqual({
      market: 'fx',
      symbols: ['NOPE'],
      code: 'UNKNOWN_SYMBOL',
      message: 'x',
    })
    expect(w.errors).toEqual([])
    expect(c.state()).toBe('open')
  })
})

describe('StreamClient liveness and reconnects', () => {
  it('terminates a silent connection after 10 s and reconnects', async () => {
    await fx.replaceServer({ autoPong: false })
    const c = makeClient()
    c.start()
    await untilOpen(c)
    w.clock.advance(5_000)
    w.clock.advance(4_999)
    expect(c.state()).toBe('open')
    w.clock.advance(1)
    expect(c.state()).toBe('reconnecting')
    await waitUntil(
      () => conn(0).socket.readyState === conn(0).socket.CLOSED,
      'server sees the drop',
    )
    w.clock.advance((c.nextRetryAt() ?? 0) - w.clock.now())
    await untilOpen(c)
    expect(w.server.connections).toHaveLength(2)
  })

  it('stays open while data keeps arriving even without pongs', async () => {
    await fx.replaceServer({ autoPong: false })
    const c = makeClient()
    c.start()
    await untilOpen(c)
    for (let i = 1; i <= 12; i++) {
      w.clock.advance(5_000)
      conn(0).socket.send(JSON.stringify({ type: 'heartbeat' }))
      await waitUntil(() => c.stats().framesIn === i, 'frame')
    }
    expect(c.state()).toBe('open')
  })

  it('resubscribes the current set after a reconnect and says it is a reconnect', async () => {
    const c = makeClient()
    const opens: boolean[] = []
    c.on('open', (o) => opens.push(o.reconnect))
    c.setSubscriptions(subs([['crypto', ['A']]]))
    c.start()
    await waitUntil(() => w.server.connections[0]?.messages.length === 1, 'subscribe')
    conn(0).socket.terminate()
    await waitUntil(() => c.state() === 'reconnecting', 'reconnecting')
    c.setSubscriptions(
      subs([
        ['crypto', ['A', 'B']],
        ['hk', ['700']],
      ]),
    )
    w.clock.advance((c.nextRetryAt() ?? 0) - w.clock.now())
    await waitUntil(() => w.server.connections[1]?.messages.length === 2, 'resubscribe')
    expect(conn(1).messages).toEqual([
      { action: 'subscribe', market: 'crypto', symbols: ['A', 'B'] },
      { action: 'subscribe', market: 'hk', symbols: ['700'] },
    ])
    expect(opens).toEqual([false, true])
    expect(c.stats()).toMatchObject({ connects: 2, reconnects: 1 })
  })

  it('reconnect delays are full-jittered between 0 and the growing cap and reset after a stable minute', async () => {
    const draws: number[] = []
    const base = seededRandom(42)
    const random: Random = () => {
      const r = base()
      draws.push(r)
      return r
    }
    let keepOpen = false
    w.server.onConnection = (sc) => {
      if (!keepOpen) sc.socket.close(1011, 'go away')
    }
    const c = makeClient({ random })
    c.start()
    const delays: number[] = []
    for (let attempt = 0; attempt < 8; attempt++) {
      await waitUntil(() => c.state() === 'reconnecting', `reconnecting #${attempt}`)
      const delay = (c.nextRetryAt() ?? 0) - w.clock.now()
      delays.push(delay)
      const cap = Math.min(60_000, 1_000 * 2 ** attempt)
      expect(delay).toBe(Math.floor((draws.at(-1) ?? -1) * cap))
      expect(delay).toBeGreaterThanOrEqual(0)
      expect(delay).toBeLessThanOrEqual(cap)
      if (attempt === 7) keepOpen = true
      w.clock.advance(delay)
      await waitUntil(() => c.state() !== 'reconnecting', 'left reconnecting')
    }
    await untilOpen(c)
    expect(Math.max(...delays)).toBeGreaterThan(8_000) // the ceiling really grew
    const last = w.server.connections.length - 1
    for (let i = 1; i <= 12; i++) {
      // Data keeps the open socket alive while fake time passes (no pongs during advance()).
      w.clock.advance(5_000)
      conn(last).socket.send('{"type":"heartbeat"}')
      await waitUntil(() => c.stats().framesIn === i, 'heartbeat frame')
    }
    expect(c.state()).toBe('open')
    w.server.connections.at(-1)?.socket.close(1011, 'later')
    await waitUntil(() => c.state() === 'reconnecting', 'reconnecting after a stable minute')
    expect((c.nextRetryAt() ?? 0) - w.clock.now()).toBe(Math.floor((draws.at(-1) ?? -1) * 1_000))
  })

  it('waits for the handshake budget before connecting', async () => {
    w.budget.blockedUntil = w.clock.now() + 5_000
    const c = makeClient()
    c.start()
    expect(c.state()).toBe('connecting')
    expect(c.nextRetryAt()).toBe(w.clock.now() + 5_000)
    w.clock.advance(4_999)
    await new Promise((r) => setTimeout(r, 20))
    expect(w.server.upgrades).toHaveLength(0)
    w.clock.advance(1)
    await untilOpen(c)
    expect(w.budget.handshakes).toBe(1)
    expect(w.budget.outcomes).toEqual([{ ok: true }])
  })

  it('stop() closes the socket, clears every timer and never reconnects', async () => {
    const c = makeClient()
    c.start()
    await untilOpen(c)
    await c.stop()
    expect(c.state()).toBe('closed')
    expect(w.clock.pendingTimers()).toBe(0)
    await waitUntil(() => conn(0).socket.readyState === conn(0).socket.CLOSED, 'server sees close')
    w.clock.advance(600_000)
    await new Promise((r) => setTimeout(r, 20))
    expect(w.server.upgrades).toHaveLength(1)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import type { Market } from '../../shared/markets/market'
import { startSimulator } from '../../sim'
import type { DialectName, SimServer } from '../../sim'
import { FakeClock } from '../clock'
import type { TickdeskError } from '../errors'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { seededRandom } from '../random'
import type { HandshakeBudget, StreamCandle } from './stream-client'
import { StreamClient } from './stream-client'
import { waitUntil } from '../testing/ws-test-server'

/** The real simulator and the real client on one FakeClock: sim ticks fire on advance(). */
const unlimited: HandshakeBudget = {
  delayFor: () => 0,
  tryAcquire: () => true,
  report: () => undefined,
}

let sim: SimServer | null = null
const clients: StreamClient[] = []

afterEach(async () => {
  for (const c of clients.splice(0)) await c.stop()
  await sim?.close()
  sim = null
})

async function setup(
  dialect: DialectName = 'typed',
): Promise<{ sim: SimServer; clock: FakeClock }> {
  const clock = new FakeClock()
  sim = await startSimulator({ clock, dialect, seed: 3 })
  return { sim, clock }
}

function client(s: SimServer, clock: FakeClock, apiKey: string): StreamClient {
  const c = new StreamClient({
    url: s.streamUrl,
    apiKey,
    budget: unlimited,
    clock,
    random: seededRandom(1),
  })
  clients.push(c)
  return c
}

const subs = (entries: [Market, string[]][]): Map<Market, Set<string>> =>
  new Map(entries.map(([m, s]) => [m, new Set(s)]))

describe('StreamClient against the simulator', () => {
  it.each<DialectName>(['typed', 'evented', 'compact'])(
    'streams ticks and candles in the %s dialect and stays connected across heartbeats',
    async (dialect) => {
      const { sim: s, clock } = await setup(dialect)
      const c = client(s, clock, s.keys.pro)
      const ticks: QuoteUpdate[] = []
      const candles: StreamCandle[] = []
      c.on('tick', (t) => ticks.push({ ...t })) // the update object is reused: copy it
      c.on('candle', (k) => candles.push(k))
      c.setSubscriptions(
        subs([
          ['crypto', ['BTCUSDT', 'ETHUSDT']],
          ['fx', ['EURUSD']],
        ]),
      )
      c.start()
      await waitUntil(() => ticks.length >= 3, 'first snapshot ticks')
      // Small steps: the sim's 10 s heartbeat needs the client's answer between two of its pings.
      for (let i = 0; i < 32; i++) {
        const before = c.stats().framesIn
        clock.advance(2_500)
        await waitUntil(() => c.stats().framesIn > before, 'pushes after advancing')
      }
      await waitUntil(() => candles.length >= 3, 'candles')
      expect(c.stats()).toMatchObject({ connects: 1, reconnects: 0, malformed: 0 })
      expect(new Set(ticks.map((t) => `${t.market}:${t.symbol}`))).toEqual(
        new Set(['crypto:BTCUSDT', 'crypto:ETHUSDT', 'fx:EURUSD']),
      )
      const btc = ticks.find((t) => t.symbol === 'BTCUSDT')
      expect(btc?.fields.last).toBeGreaterThan(1_000)
      expect(btc?.ts).toBeGreaterThan(clock.now() - 120_000)
      const bar = candles[0]?.bar
      expect(bar && bar.high >= bar.low && bar.closeTime > bar.openTime).toBe(true)
      expect(bar?.openTime).toBeGreaterThan(Date.UTC(2020, 0, 1))
    },
  )

  it('counts the simulator garbage frames as malformed and keeps streaming', async () => {
    const { sim: s, clock } = await setup('evented')
    const c = client(s, clock, s.keys.pro)
    c.setSubscriptions(subs([['crypto', ['BTCUSDT']]]))
    c.start()
    await waitUntil(() => c.stats().ticksIn >= 1, 'first tick')
    s.faults.malformed(3)
    for (let i = 0; i < 6; i++) {
      const before = c.stats().framesIn
      clock.advance(250)
      await waitUntil(() => c.stats().framesIn > before, 'frame')
    }
    expect(c.stats().malformed).toBe(2) // one of the three garbage frames is an unknown event
    expect(c.state()).toBe('open')
  })

  it('reconnects and resubscribes after the simulator drops every socket', async () => {
    const { sim: s, clock } = await setup()
    const c = client(s, clock, s.keys.pro)
    const ticks: QuoteUpdate[] = []
    c.on('tick', (t) => ticks.push({ ...t })) // the update object is reused: copy it
    c.setSubscriptions(subs([['crypto', ['SOLUSDT']]]))
    c.start()
    await waitUntil(() => ticks.length >= 1, 'first tick')
    s.faults.dropSockets()
    await waitUntil(() => c.state() === 'reconnecting', 'reconnecting')
    ticks.length = 0
    clock.advance((c.nextRetryAt() ?? 0) - clock.now())
    await waitUntil(() => ticks.length >= 1, 'ticks after reconnect')
    expect(c.stats()).toMatchObject({ connects: 2, reconnects: 1 })
  })

  it('gets WS_CONN_LIMIT on a second free-plan socket and backs off at least 20 s', async () => {
    const { sim: s, clock } = await setup()
    const first = client(s, clock, s.keys.free)
    first.start()
    await waitUntil(() => first.state() === 'open', 'first open')
    const second = client(s, clock, s.keys.free)
    const errors: TickdeskError[] = []
    second.on('error', (e) => errors.push(e))
    second.start()
    await waitUntil(() => second.state() === 'reconnecting', 'second backing off')
    expect(errors.map((e) => e.code)).toContain('WS_CONN_LIMIT')
    expect((second.nextRetryAt() ?? 0) - clock.now()).toBeGreaterThanOrEqual(20_000)
  })

  it('reports symbols over the free plan cap as refused while the rest stream', async () => {
    const { sim: s, clock } = await setup()
    const c = client(s, clock, s.keys.free)
    const refused: string[] = []
    c.on('symbolError', (e) => refused.push(...e.symbols))
    c.on('symbolCap', (e) => refused.push(...e.symbols))
    const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'NOPE']
    const fx = ['EURUSD', 'USDJPY', 'GBPUSD', 'AUDUSD', 'USDCHF', 'USDCAD', 'USDCNH']
    c.setSubscriptions(
      subs([
        ['crypto', symbols],
        ['fx', fx],
      ]),
    )
    c.start()
    await waitUntil(() => refused.length >= 2, 'refusals')
    expect(refused).toContain('NOPE')
    expect(refused.filter((r) => fx.includes(r))).toHaveLength(1)
    expect(c.state()).toBe('open')
  })

  it('stops on a bad key and resumes with a good one; waits 15 min on an expired plan', async () => {
    const { sim: s, clock } = await setup()
    const bad = client(s, clock, 'not-a-key-at-all')
    bad.start()
    await waitUntil(() => bad.state() === 'closed', '401 halt')
    bad.setApiKey(s.keys.growth)
    await waitUntil(() => bad.state() === 'open', 'open with a good key')
    const expired = client(s, clock, s.keys.expired)
    const errors: TickdeskError[] = []
    expired.on('error', (e) => errors.push(e))
    expired.start()
    await waitUntil(() => expired.state() === 'reconnecting', '403 wait')
    expect(errors[0]).toMatchObject({ code: 'SUBSCRIPTION_EXPIRED', status: 403 })
    expect((expired.nextRetryAt() ?? 0) - clock.now()).toBeGreaterThanOrEqual(15 * 60_000)
  })
})

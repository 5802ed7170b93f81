import { afterEach, describe, expect, it } from 'vitest'
import type { Quote } from '../../src/shared/quote'
import { startSession, type Session } from './harness'

/**
 * Readings of the spec where it is silent, each played by a simulator switch (src/sim/behaviour.ts)
 * against the real engine on one FakeClock: the client must hold whichever one a service picks.
 */

let s: Session | null = null
afterEach(async () => {
  await s?.close()
  s = null
})

describe('service readings', () => {
  it('dates no quote and no bar after it arrived when closeTime is the end of the day', async () => {
    s = await startSession({
      plan: 'free',
      key: (sim) => sim.keys.free,
      symbols: ['fx:EURUSD', 'commodity:XAUUSD'],
      sim: { behaviour: { quoteCloseTime: 'end-of-day' } },
    })
    const polled: Quote[] = []
    s.engine.onQuote((q) => {
      if (q.source === 'poll') polled.push({ ...q })
    })
    expect(await s.until(() => polled.length >= 2, 30_000)).toBe(true)
    for (const q of polled) expect(q.ts).toBeLessThanOrEqual(q.receivedAt)
    const now = s.clock.now()
    for (const key of ['fx:EURUSD', 'commodity:XAUUSD']) {
      const bars = s.engine.candles.bars(key, '1m', 10)
      expect(bars.length).toBeGreaterThan(0)
      for (const b of bars) expect(b.openTime).toBeLessThanOrEqual(now)
    }
  })
})

describe('quota without Retry-After', () => {
  it('sends no handshake until the quota resets, says when, and comes back after the reset', async () => {
    s = await startSession({
      plan: 'free',
      key: (sim) => sim.keys.quotaLimited,
      symbols: ['crypto:BTCUSDT', 'fx:EURUSD'],
      sim: { behaviour: { quotaRetryAfter: false } },
    })
    const session = s
    expect(await session.until(() => session.engine.status().state === 'live')).toBe(true)
    // Spend the rest of the day's quota from elsewhere (another app on the same key).
    const spend = `${session.sim.url}/api/v1/market/crypto/quote?symbols=BTCUSDT`
    const headers = { 'X-API-Key': session.sim.keys.quotaLimited }
    while ((await fetch(spend, { headers })).status !== 429);
    session.engine.checkHealth()
    const exhausted = await session.until(
      () => session.engine.status().code === 'DAILY_LIMIT_EXCEEDED',
      60_000,
    )
    expect(exhausted).toBe(true)
    const midnight = Date.UTC(2026, 0, 6)
    expect(session.engine.status()).toMatchObject({ state: 'paused', retryAt: midnight })
    expect(session.engine.status().message).toContain(new Date(midnight).toISOString())
    // The stream drops: pushes were free, a new handshake is not (spec: Limits).
    const handshakes = session.sim.stats().wsHandshakes
    session.sim.faults.dropSockets()
    await session.run(30 * 60_000, 5_000)
    expect(session.sim.stats().wsHandshakes).toBe(handshakes)
    expect(session.engine.status().retryAt).toBe(midnight)
    await session.run(midnight - session.clock.now() + 60_000, 60_000)
    expect(await session.until(() => session.engine.status().state === 'live', 60_000)).toBe(true)
  })
})

describe('403 without a code', () => {
  it('asks a refused market again only after 15 min, like the stream after a 403, and says so', async () => {
    s = await startSession({
      plan: 'pro',
      key: (sim) => sim.keys.cryptoOnly,
      symbols: ['crypto:BTCUSDT', 'fx:EURUSD'],
      sim: { behaviour: { forbiddenWithoutCode: true } },
    })
    const session = s
    session.sim.faults.silence(30 * 60_000)
    await session.run(10 * 60_000, 1_000)
    const stats = session.sim.stats()
    expect(stats.symbolAsks.EURUSD).toBeLessThanOrEqual(2)
    expect(stats.symbolAsks.BTCUSDT).toBeGreaterThan(50)
    expect(session.engine.symbolStatuses()).toContainEqual({
      key: 'fx:EURUSD',
      code: 'FORBIDDEN',
      message: expect.stringMatching(/403.*15 min/),
    })
    expect(session.engine.status().state).not.toBe('stopped')
    await session.run(6 * 60_000, 1_000)
    expect(session.sim.stats().symbolAsks.EURUSD).toBe((stats.symbolAsks.EURUSD ?? 0) + 1)
  })
})

describe('agriculture on the multi-market quote', () => {
  it.each([
    ['serves it', true],
    ['refuses it', false],
  ])(
    'shows agri prices when the multi-market quote %s, kline calls only for the refused',
    async (_n, agriOnMultiQuote) => {
      s = await startSession({
        plan: 'free',
        key: (sim) => sim.keys.free,
        symbols: ['agri:ZC1!', 'agri:ZS1!', 'fx:EURUSD'],
        sim: { behaviour: { agriOnMultiQuote } },
      })
      const session = s
      const shown = await session.until(
        () => ['agri:ZC1!', 'agri:ZS1!'].every((k) => session.engine.quotes.get(k)?.last != null),
        10_000,
      )
      expect(shown).toBe(true)
      await session.run(3 * 60_000, 1_000)
      const klines = session.sim.stats().byPath['/api/v1/market/agri/kline'] ?? 0
      if (agriOnMultiQuote) expect(klines).toBe(0)
      else expect(klines).toBeLessThanOrEqual(2 * 4)
      expect(session.engine.symbolStatuses().filter((st) => st.code !== 'OK')).toEqual([])
    },
  )
})

describe('the multi-market quote parameter', () => {
  it('finds the name the service takes (symbols or symbol) with one extra request', async () => {
    s = await startSession({
      plan: 'free',
      key: (sim) => sim.keys.free,
      symbols: ['fx:EURUSD', 'commodity:XAUUSD', 'index:SPX'],
      sim: { behaviour: { multiQuoteParam: 'symbol' } },
    })
    const session = s
    session.sim.faults.silence(120_000)
    const priced = await session.until(
      () =>
        ['fx:EURUSD', 'commodity:XAUUSD', 'index:SPX'].every(
          (k) => session.engine.quotes.get(k)?.last != null,
        ),
      5_000,
      100,
    )
    expect(priced).toBe(true)
    await session.run(60_000, 1_000)
    expect(session.engine.symbolStatuses().filter((st) => st.code !== 'OK')).toEqual([])
    expect(session.sim.stats().http429).toBe(0)
  })
})

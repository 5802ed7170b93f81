import { afterEach, describe, expect, it } from 'vitest'
import { STREAM_PATH } from '../../src/sim/stream'
import { CRYPTO12, pricedKeys, startSession, times429, type Session } from './harness'

/**
 * Service and network faults against the real engine and the simulator's fault hooks, on one
 * FakeClock. Each test states what the trader sees (feed state and code, stale marks), that no
 * quote already shown is lost, and that the client stays within the plan on the server's count.
 */

let s: Session | null = null
afterEach(async () => {
  await s?.close()
  s = null
})

async function liveSession(opts: Parameters<typeof startSession>[0] = {}): Promise<Session> {
  s = await startSession(opts)
  const want = (opts.symbols ?? ['x', 'y', 'z']).length
  const ready = await s.until(
    () => s?.engine.status().state === 'live' && pricedKeys(s.engine).length === want,
    60_000,
  )
  expect(ready, JSON.stringify(s.engine.status())).toBe(true)
  return s
}

describe('faults: the service and the network', () => {
  it('starts offline when the service is down, shows NETWORK, and goes live once it is up', async () => {
    s = await startSession({})
    await s.sim.faults.down()
    await s.run(20_000)
    expect(s.engine.status()).toMatchObject({ state: 'offline', code: 'NETWORK' })
    await s.sim.faults.up()
    expect(await s.until(() => s?.engine.status().state === 'live', 120_000)).toBe(true)
    expect(await s.until(() => pricedKeys(s!.engine).length === 3)).toBe(true)
    expect(s.sim.stats().maxWsOpen).toBe(1)
  })

  it('keeps every quote (marked stale) when the stream drops, reconnects one socket and refreshes them', async () => {
    const session = await liveSession({ symbols: CRYPTO12, plan: 'free', key: (x) => x.keys.free })
    const before = pricedKeys(session.engine)
    const reconnects = session.engine.streamStats().reconnects
    session.sim.faults.dropSockets()
    await session.run(500)
    expect(pricedKeys(session.engine)).toEqual(before)
    expect(await session.until(() => session.engine.streamStats().reconnects > reconnects)).toBe(
      true,
    )
    expect(await session.until(() => session.engine.status().state === 'live')).toBe(true)
    expect(await session.until(() => session.engine.quotes.all().every((q) => !q.stale))).toBe(true)
    await session.run(60_000)
    const stats = session.sim.stats()
    expect(stats.maxWsOpen).toBe(1)
    expect(stats.http429).toBe(0)
    expect(session.maxPerMinute()).toBeLessThanOrEqual(30)
  })

  it('terminates a silent stream (no data, no pongs) within 35 s and reconnects', async () => {
    const session = await liveSession()
    const connects = session.engine.streamStats().connects
    session.sim.faults.silence(40_000)
    const t0 = session.clock.now()
    expect(
      await session.until(() => session.engine.streamStats().connects > connects, 60_000),
    ).toBe(true)
    expect(session.clock.now() - t0).toBeLessThanOrEqual(35_000)
    expect(pricedKeys(session.engine)).toHaveLength(3)
    await session.run(10_000)
    expect(await session.until(() => session.engine.status().state === 'live')).toBe(true)
    expect(await session.until(() => session.engine.quotes.all().every((q) => !q.stale))).toBe(true)
    expect(session.sim.stats().maxWsOpen).toBe(1)
  })

  it('drops a flood of malformed frames, counts them and keeps the same socket streaming', async () => {
    const session = await liveSession()
    const connects = session.engine.streamStats().connects
    session.sim.faults.malformed(300)
    // Of the simulator's three garbage frames, one is a well-formed unknown event (ignored).
    expect(await session.until(() => session.engine.streamStats().malformed >= 200)).toBe(true)
    const stats = session.engine.streamStats()
    expect(stats.connects).toBe(connects)
    const ticks = stats.ticksIn
    await session.run(5_000)
    expect(session.engine.streamStats().ticksIn).toBeGreaterThan(ticks)
    expect(session.engine.status().state).toBe('live')
  })

  it('honours Retry-After in a 429 storm: nothing is sent until it passes', async () => {
    const session = await liveSession({ symbols: CRYPTO12, plan: 'free', key: (x) => x.keys.free })
    const start = session.samples.length
    session.sim.faults.failNext({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      retryAfterSec: 20,
      times: 4,
    })
    expect(await session.until(() => session.engine.status().state === 'paused')).toBe(true)
    expect(session.engine.status()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' })
    expect(await session.until(() => session.sim.stats().http429 >= 4, 180_000)).toBe(true)
    const at = times429(session.samples.slice(start))
    for (let i = 1; i < at.length; i++)
      expect((at[i] as number) - (at[i - 1] as number)).toBeGreaterThanOrEqual(20_000 - 250)
    expect(await session.until(() => session.engine.status().state === 'live')).toBe(true)
    await session.run(30_000)
    expect(session.sim.stats().http429).toBe(4)
    expect(pricedKeys(session.engine)).toHaveLength(12)
    expect(session.maxPerMinute()).toBeLessThanOrEqual(30)
  })

  it('backs off exponentially in a 429 storm without Retry-After', async () => {
    const session = await liveSession({ symbols: CRYPTO12, plan: 'free', key: (x) => x.keys.free })
    session.sim.faults.failNext({ status: 429, code: 'RATE_LIMIT_EXCEEDED', times: 50 })
    await session.run(60_000)
    const first = session.sim.stats().http429
    // Full jitter from 1 s doubling to 60 s: a minute of storm costs a handful of requests, not 27.
    expect(first).toBeGreaterThan(0)
    expect(first).toBeLessThanOrEqual(10)
    expect(session.engine.status().state).toBe('paused')
    await session.run(120_000)
    expect(session.sim.stats().http429 - first).toBeLessThanOrEqual(6)
    expect(pricedKeys(session.engine)).toHaveLength(12)
    expect(session.maxPerMinute()).toBeLessThanOrEqual(30)
  })

  it('pauses REST until the next UTC midnight when the daily quota runs out, keeping the stream', async () => {
    const session = await startSession({
      symbols: CRYPTO12,
      plan: 'free',
      key: (x) => x.keys.quotaLimited,
    })
    s = session
    expect(await session.until(() => session.engine.status().code === 'DAILY_LIMIT_EXCEEDED')).toBe(
      true,
    )
    const status = session.engine.status()
    expect(status.state).toBe('paused')
    const midnight = Date.UTC(2026, 0, 6)
    expect(status.retryAt).toBeGreaterThan(session.clock.now())
    expect(status.retryAt).toBeLessThanOrEqual(midnight + 1000)
    const rest = session.sim.stats().restRequests
    const http429 = session.sim.stats().http429
    const ticks = session.engine.streamStats().ticksIn
    await session.run(10 * 60_000, 1000)
    expect(session.sim.stats().restRequests - rest).toBe(0)
    expect(session.sim.stats().http429 - http429).toBe(0)
    expect(session.engine.streamStats().ticksIn).toBeGreaterThan(ticks)
    expect(pricedKeys(session.engine).length).toBeGreaterThanOrEqual(10)
    // Ten minutes of the session played in 1 s steps: 7 s alone, past 20 s beside the whole suite.
  }, 60_000)

  for (const status of [502, 503]) {
    it(`rides out a burst of ${status}s with backoff and recovers every quote`, async () => {
      const session = await liveSession({
        symbols: [...CRYPTO12, 'agri:ZC1!'],
        plan: 'free',
        key: (x) => x.keys.free,
      })
      const code = status === 502 ? 'UPSTREAM_UNAVAILABLE' : 'RATE_LIMIT_UNAVAILABLE'
      const rest = session.sim.stats().restRequests
      // The burst hits REST and the stream handshake alike, as a failing upstream would.
      session.sim.faults.failNext({ status, code, times: 8 })
      session.sim.faults.failNext({ status, code, times: 4, path: STREAM_PATH })
      session.sim.faults.dropSockets()
      expect(await session.until(() => session.statuses.some((x) => x.code === code), 30_000)).toBe(
        true,
      )
      expect(session.statuses.find((x) => x.code === code)?.state).toBe('offline')
      expect(await session.until(() => session.engine.status().state === 'live', 300_000)).toBe(
        true,
      )
      // REST backs off on its own (full jitter up to 60 s), so polled rows can take minutes; the
      // streamed ones are live again at once. Every row must come back, none may be dropped.
      const fresh = (): boolean => session.engine.quotes.all().every((q) => !q.stale)
      expect(await session.until(fresh, 600_000, 1000)).toBe(true)
      expect(pricedKeys(session.engine)).toHaveLength(13)
      expect(session.sim.stats().restRequests - rest).toBeLessThan(60)
      expect(session.sim.stats().maxWsOpen).toBe(1)
      expect(session.maxPerMinute()).toBeLessThanOrEqual(30)
    })
  }

  it('times out slow responses (TIMEOUT), keeps the last prices and recovers when fast again', async () => {
    const session = await liveSession({ symbols: ['agri:ZC1!', 'crypto:BTCUSDT', 'fx:EURUSD'] })
    session.sim.faults.slow(20_000, 3)
    // While the stream is live a failing poll is not account news: it shows in the log, and the
    // row goes stale only if it stays unrefreshed for 90 s.
    expect(await session.until(() => session.logged.some((l) => l.includes('TIMEOUT')))).toBe(true)
    expect(pricedKeys(session.engine)).toHaveLength(3)
    await session.run(60_000)
    expect(session.engine.status()).toMatchObject({ state: 'live', code: null })
    const agri = session.engine.quotes.get('agri:ZC1!')
    expect(agri?.stale).toBe(false)
    expect(session.clock.now() - (agri?.receivedAt ?? 0)).toBeLessThan(30_000)
  })

  it('after a system sleep, checks the stream at once instead of waiting for the silence timeout', async () => {
    const session = await liveSession()
    const connects = session.engine.streamStats().connects
    // The laptop sleeps 10 min: the server gave up on us meanwhile, so nothing comes back.
    session.sim.faults.silence(15 * 60_000)
    session.clock.jump(10 * 60_000)
    const t0 = session.clock.now()
    expect(
      await session.until(() => session.engine.streamStats().connects > connects, 30_000),
    ).toBe(true)
    // Sleep detector (<= 5 s tick) + health ping timeout (5 s) + reconnect, well under 30 s silence.
    expect(session.clock.now() - t0).toBeLessThan(20_000)
    expect(pricedKeys(session.engine)).toHaveLength(3)
    expect(session.sim.stats().maxWsOpen).toBe(1)
  })
})

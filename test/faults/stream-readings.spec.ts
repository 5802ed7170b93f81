import { afterEach, describe, expect, it } from 'vitest'
import { PRIORITY } from '../../src/core/engine/engine'
import { CRYPTO12, startSession, type Session } from './harness'

/**
 * The stream where the spec is silent (Events: unsubscribe "not shown"; Limits: caps
 * "approximate", one code for both): the simulator plays each reading, the engine keeps one socket.
 */

let s: Session | null = null
afterEach(async () => {
  await s?.close()
  s = null
})

const streamedCount = (session: Session): number =>
  session.engine.quotes.all().filter((q) => q.source === 'stream' && !q.stale).length

describe('the symbol cap', () => {
  it.each(['listed', 'unlisted'] as const)(
    'keeps the socket and streams what the service accepts when it refuses symbols (%s)',
    async (symbolCapError) => {
      s = await startSession({
        plan: 'free',
        key: (sim) => sim.keys.free,
        symbols: CRYPTO12,
        sim: { behaviour: { symbolCapError }, wsSymbolsOverride: { free: 8 } },
      })
      const session = s
      // Learnt at once, not after the 20 s a silent slot takes to be given up.
      await session.run(10_000, 250)
      expect(session.engine.status().stream.symbols).toBeLessThanOrEqual(8)
      await session.run(80_000, 500)
      const stats = session.sim.stats()
      expect(stats.wsHandshakes).toBe(1)
      expect(stats.maxWsOpen).toBe(1)
      expect(session.engine.status().stream.symbols).toBeLessThanOrEqual(8)
      expect(session.engine.status().stream.symbols).toBeGreaterThanOrEqual(7)
      expect(streamedCount(session)).toBeGreaterThanOrEqual(7)
      // Every symbol keeps a fresh price: streamed or polled.
      const now = session.clock.now()
      for (const q of session.engine.quotes.all()) expect(now - q.receivedAt).toBeLessThan(15_000)
    },
  )
})

describe('unsubscribe ignored', () => {
  it('notices pushes for symbols it left and resyncs with one new socket holding the wanted set', async () => {
    s = await startSession({
      plan: 'pro',
      key: (sim) => sim.keys.pro,
      symbols: [],
      sim: { behaviour: { ignoresUnsubscribe: true } },
    })
    const session = s
    const offs = CRYPTO12.slice(0, 5).map((key) => session.engine.watch(key))
    expect(await session.until(() => session.engine.status().stream.symbols === 5)).toBe(true)
    await session.run(2_000)
    const handshakes = session.sim.stats().wsHandshakes
    // Stop watching two: the service keeps pushing them, and keeps them against the cap.
    for (const off of offs.slice(3)) off()
    await session.run(1_000)
    const lastShown = session.engine.quotes.get(CRYPTO12[4] as string)?.receivedAt
    await session.run(20_000, 250)
    const stats = session.sim.stats()
    expect(stats.wsHandshakes).toBe(handshakes + 1)
    expect(stats.maxWsOpen).toBe(1)
    expect(stats.subscribedSymbols).toBe(3)
    // What it left is not shown any more, whatever the service still pushes.
    expect(session.engine.quotes.get(CRYPTO12[4] as string)?.receivedAt).toBe(lastShown)
  })

  it('resyncs instead of shrinking its cap when the cap is reached after it unsubscribed', async () => {
    s = await startSession({
      plan: 'free',
      key: (sim) => sim.keys.free,
      symbols: CRYPTO12,
      sim: { behaviour: { ignoresUnsubscribe: true } },
    })
    const session = s
    expect(await session.until(() => streamedCount(session) === 10, 60_000)).toBe(true)
    const handshakes = session.sim.stats().wsHandshakes
    // Two polled rows come into view: they take two slots from two rows out of view.
    const visible = new Map(CRYPTO12.slice(10).map((k) => [k, PRIORITY.visible]))
    session.engine.setPriorities(visible)
    await session.run(30_000, 250)
    const stats = session.sim.stats()
    expect(stats.wsHandshakes).toBe(handshakes + 1)
    expect(stats.maxWsOpen).toBe(1)
    expect(stats.subscribedSymbols).toBe(10)
    expect(session.engine.status().stream.symbols).toBe(10)
    for (const key of CRYPTO12.slice(10))
      expect(session.engine.quotes.get(key)?.source).toBe('stream')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { startSession, type Session } from './harness'

/**
 * A stalled service: the socket stays up but nothing comes (no ticks, no pongs), and a
 * fresh handshake is held unanswered too, for 35 s. The client must not hammer it with
 * handshakes, must keep prices coming over REST meanwhile, and must have live stream prices
 * within 5 s of the service speaking again. Run on the simulator's clock (FakeClock).
 */

let s: Session | null = null
afterEach(async () => {
  await s?.close()
  s = null
})

const KEYS = ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'fx:EURUSD']

function streamedSince(session: Session, t: number): boolean {
  return KEYS.every((k) => {
    const q = session.engine.quotes.get(k)
    return q !== undefined && q.source === 'stream' && q.receivedAt >= t && !q.stale
  })
}

describe('a stalled service', () => {
  for (const [kind, stallMs] of [
    ['stall', 35_000],
    ['half-open', 35_000],
    ['stall', 90_000],
  ] as const) {
    it(`${kind} ${stallMs / 1000} s: few handshakes prices over REST meanwhile, live stream within 5 s after it speaks again`, async () => {
      s = await startSession({ symbols: KEYS })
      expect(await s.until(() => streamedSince(s!, 0))).toBe(true)
      await s.run(5_000)
      const before = s.sim.stats()
      const stallStart = s.clock.now()
      if (kind === 'half-open') s.sim.faults.forgetSockets()
      s.sim.faults.stall(stallMs)
      await s.run(stallMs)
      const during = s.sim.stats()
      const handshakes = during.wsHandshakes - before.wsHandshakes
      const polled = KEYS.filter((k) => {
        const q = s!.engine.quotes.get(k)
        return q !== undefined && q.receivedAt > stallStart + stallMs - 15_000
      })
      const spoke = s.clock.now()
      // 20 ms of real time per 100 ms of fake: the new handshake's replies are real socket work.
      const recovered = await s.until(() => streamedSince(s!, spoke), 30_000, 100, 20)
      const tookMs = s.clock.now() - spoke
      console.log(
        `${kind} ${stallMs / 1000} s: ${handshakes} handshake(s) during it, ${polled.length}/${KEYS.length} priced over REST in its last 15 s, stream live ${tookMs} ms after it ended`,
      )
      expect(recovered).toBe(true)
      expect(tookMs).toBeLessThanOrEqual(5_000)
      // One held handshake at a time: one per 30 s of stall at most, not a reconnect storm.
      expect(handshakes).toBeLessThanOrEqual(Math.ceil(stallMs / 30_000))
      expect(polled).toEqual(KEYS)
      expect(s.sim.stats().http429).toBe(0)
    }, 120_000)
  }
})

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

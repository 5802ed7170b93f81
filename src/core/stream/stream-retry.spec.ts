import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { connLimitDelay, rateLimitedDelay, reconnectDelay, RetrySchedule } from './stream-retry'

describe('stream retry delays', () => {
  it('keeps ordinary reconnects within [0, min(60 s, 1 s × 2^attempt)]', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.double({ min: 0, max: 0.9999999, noNaN: true }), (attempt, r) => {
        const d = reconnectDelay(attempt, () => r)
        expect(d).toBeGreaterThanOrEqual(0)
        expect(d).toBeLessThanOrEqual(Math.min(60_000, 1_000 * 2 ** attempt))
      }),
    )
  })

  it('never retries WS_CONN_LIMIT sooner than 20 s and reaches 5 minutes', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.double({ min: 0, max: 0.9999999, noNaN: true }), (attempt, r) => {
        const d = connLimitDelay(attempt, () => r)
        expect(d).toBeGreaterThanOrEqual(20_000)
        expect(d).toBeLessThanOrEqual(600_000)
      }),
    )
    expect(connLimitDelay(4, () => 0)).toBeGreaterThanOrEqual(300_000)
  })

  it('lets Retry-After win over a shorter backoff', () => {
    expect(rateLimitedDelay(90_000, 0, () => 0.5)).toBe(90_000)
    expect(rateLimitedDelay(null, 0, () => 0)).toBe(1_000)
  })

  it('follows a timed-out handshake within a second, however many drops came before', () => {
    // A stall: the held handshakes already waited 15, 30, 60 s. A retry grown by the drops before
    // it (up to 16 s by the fifth) would leave a service that recovered in the gap waiting.
    const clock = new FakeClock(0)
    const schedule = new RetrySchedule(
      clock,
      () => 0.9999,
      () => undefined,
    )
    for (let i = 0; i < 5; i++) schedule.arm('drop')
    expect(schedule.at).toBeGreaterThan(8_000)
    schedule.arm('timeout')
    expect(schedule.at).toBeLessThanOrEqual(1_000)
    expect(schedule.cutShortable).toBe(true)
  })
})

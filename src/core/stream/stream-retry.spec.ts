import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { connLimitDelay, rateLimitedDelay, reconnectDelay } from './stream-retry'

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
})

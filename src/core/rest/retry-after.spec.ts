import { describe, expect, it } from 'vitest'
import { DAILY_WAIT_CAP_MS, parseRetryAfter, RATE_WAIT_CAP_MS, retryAfterFor } from './retry-after'

/** A fixed instant: the readings below must not depend on the day the suite runs. */
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0)

describe('Retry-After in every form HTTP allows', () => {
  it.each([
    ['30', 30_000],
    ['0', 0],
    ['1.5', 1_500],
    ['Sat, 28 Nov 2026 12:01:00 GMT', 60_000],
    ['Saturday, 28-Nov-26 12:02:00 GMT', 120_000],
    ['Sat Nov 28 12:00:30 2026', 30_000],
    ['Sat Nov  8 12:00:30 2026', 0],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms)
  })

  it('reads an absolute time sent where a delay belongs: Unix seconds, ms or ISO 8601', () => {
    expect(parseRetryAfter(String(NOW / 1000 + 45), NOW)).toBe(45_000)
    expect(parseRetryAfter(String(NOW + 45_000), NOW)).toBe(45_000)
    expect(parseRetryAfter('2026-11-28T12:00:45Z', NOW)).toBe(45_000)
    expect(parseRetryAfter('2026-11-28T20:00:45+08:00', NOW)).toBe(45_000)
  })

  it('reads an RFC 850 two-digit year as the most recent past year with those digits', () => {
    // "06" is 2006, not 1906; "80" as 2080 would be over 50 years ahead of 2026: it is 1980.
    expect(parseRetryAfter('Sunday, 06-Nov-06 08:49:37 GMT', NOW)).toBe(0)
    expect(parseRetryAfter('Thursday, 06-Nov-80 08:49:37 GMT', NOW)).toBe(0)
    expect(parseRetryAfter('Friday, 06-Nov-76 08:49:37 GMT', NOW)).toBeGreaterThan(0)
    expect(parseRetryAfter('Monday, 28-Dec-26 12:00:00 GMT', NOW)).toBe(30 * 86_400_000)
  })

  it('gives no wait for what it cannot read', () => {
    for (const v of [null, undefined, '', ' ', 'soon', '-5', 'Mon, 99 Foo 2026 00:00:00 GMT'])
      expect(parseRetryAfter(v, NOW)).toBeNull()
  })

  it('caps a wait by what the refusal can mean: minutes for a rate limit, a day for a daily quota', () => {
    const decades = String(NOW / 1000 + 30 * 365 * 86_400)
    expect(retryAfterFor('1764331200000000', 'RATE_LIMIT_EXCEEDED', NOW)).toBe(RATE_WAIT_CAP_MS)
    expect(retryAfterFor(decades, 'KEY_RATE_LIMIT_EXCEEDED', NOW)).toBe(RATE_WAIT_CAP_MS)
    expect(retryAfterFor(decades, 'DAILY_LIMIT_EXCEEDED', NOW)).toBe(DAILY_WAIT_CAP_MS)
    expect(retryAfterFor('3600', 'DAILY_LIMIT_EXCEEDED', NOW)).toBe(3_600_000)
  })
})

import { describe, expect, it } from 'vitest'
import { INTERVALS } from './quote'
import {
  barCloseTime,
  barOpenFor,
  bucketEnd,
  bucketStart,
  intervalMs,
  normaliseInterval,
  toWireInterval,
} from './intervals'

describe('intervals', () => {
  it.each([
    ['1', '1m'],
    ['1m', '1m'],
    ['5', '5m'],
    ['5m', '5m'],
    ['15', '15m'],
    ['15m', '15m'],
    ['60', '1h'],
    ['1h', '1h'],
    ['240', '4h'],
    ['4h', '4h'],
    ['1d', '1d'],
    ['D', '1d'],
    ['1w', '1w'],
    ['W', '1w'],
    ['1mo', '1mo'],
    ['M', '1mo'],
  ])('normalises the alias %s to %s', (alias, canonical) => {
    expect(normaliseInterval(alias)).toBe(canonical)
  })

  it('tells a minute (m) from a month (M) and rejects unknown intervals', () => {
    expect(normaliseInterval('1m')).toBe('1m')
    expect(normaliseInterval('M')).toBe('1mo')
    expect(normaliseInterval('7m')).toBeNull()
    expect(normaliseInterval('toString')).toBeNull()
    expect(normaliseInterval(60)).toBe('1h')
  })

  it('writes the wire form and round-trips every canonical interval', () => {
    expect(INTERVALS.map(toWireInterval)).toEqual(['1', '5', '15', '60', '240', '1d', '1w', '1mo'])
    for (const i of INTERVALS) expect(normaliseInterval(toWireInterval(i))).toBe(i)
    expect(intervalMs('4h')).toBe(4 * 3_600_000)
  })
})

describe('bar times (one rule for every path)', () => {
  const T = Date.UTC(2026, 1, 10, 13, 47, 12) // a Tuesday in February

  it('buckets in UTC: weeks open on Monday, months on the 1st', () => {
    expect(bucketStart('1h', T)).toBe(Date.UTC(2026, 1, 10, 13))
    expect(bucketStart('1w', T)).toBe(Date.UTC(2026, 1, 9))
    expect(bucketStart('1mo', T)).toBe(Date.UTC(2026, 1, 1))
  })

  it('closes a bar at its last millisecond, a calendar month for 1mo', () => {
    expect(bucketEnd('1m', T)).toBe(T + 59_999)
    expect(bucketEnd('1w', Date.UTC(2026, 1, 9))).toBe(Date.UTC(2026, 1, 16) - 1)
    expect(bucketEnd('1mo', Date.UTC(2026, 1, 1))).toBe(Date.UTC(2026, 2, 1) - 1)
    expect(bucketEnd('1mo', Date.UTC(2026, 2, 1))).toBe(Date.UTC(2026, 3, 1) - 1)
  })

  it('keeps a close the service sent unless it lies before the open', () => {
    expect(barCloseTime('1h', T, T + 10)).toBe(T + 10)
    expect(barCloseTime('1h', T, T - 10)).toBe(T + 3_599_999)
    expect(barCloseTime('1h', T, null)).toBe(T + 3_599_999)
  })

  it('opens the next bar in the phase of the service bars, months included', () => {
    const dailyAt22 = Date.UTC(2026, 1, 9, 22)
    expect(barOpenFor('1d', dailyAt22, T)).toBe(dailyAt22)
    expect(barOpenFor('1d', dailyAt22, Date.UTC(2026, 1, 11, 23))).toBe(Date.UTC(2026, 1, 11, 22))
    expect(barOpenFor('1mo', Date.UTC(2026, 0, 1), T)).toBe(Date.UTC(2026, 1, 1))
  })
})

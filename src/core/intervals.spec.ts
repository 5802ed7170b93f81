import { describe, expect, it } from 'vitest'
import { INTERVALS } from '../shared/quote'
import { intervalMs, normaliseInterval, toWireInterval } from './intervals'

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

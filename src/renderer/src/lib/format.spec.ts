import { describe, expect, it } from 'vitest'
import { formatAge, formatAgeShort, formatAsOf } from './format'

describe('quote age', () => {
  const now = new Date(2025, 10, 21, 16, 30, 0).getTime()
  it('says seconds in 5 s steps within a minute and minutes within an hour', () => {
    expect(formatAge(now - 1_500, now)).toBe('just now')
    expect(formatAge(now - 4_999, now)).toBe('just now')
    expect(formatAge(now - 5_000, now)).toBe('5 s ago')
    expect(formatAge(now - 12_000, now)).toBe('10 s ago')
    expect(formatAge(now - 59_999, now)).toBe('55 s ago')
    expect(formatAge(now - 5 * 60_000, now)).toBe('5 min ago')
  })
  it('changes its text at most once per 5 s while a value ages (a quiet grid does not repaint every second)', () => {
    const texts = new Set<string>()
    for (let ms = 0; ms < 60_000; ms += 1000) texts.add(formatAge(now - ms, now))
    expect(texts.size).toBe(12)
  })
  it('says "as of HH:MM" for older values, with the date when not today', () => {
    expect(formatAge(new Date(2025, 10, 21, 14, 3).getTime(), now)).toBe('as of 14:03')
    expect(formatAge(new Date(2025, 10, 20, 9, 5).getTime(), now)).toBe('as of Nov 20 09:05')
  })
  it('says less in the Source column: the date alone for another day (the tooltip has the time)', () => {
    expect(formatAgeShort(now - 5 * 60_000, now)).toBe('5 min ago')
    expect(formatAgeShort(new Date(2025, 10, 21, 14, 3).getTime(), now)).toBe('as of 14:03')
    expect(formatAgeShort(new Date(2025, 10, 20, 9, 5).getTime(), now)).toBe('Nov 20')
    expect(formatAsOf(now - 60_000, now)).toMatch(/^as of \d\d:\d\d$/)
  })
})

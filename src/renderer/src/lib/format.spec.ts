import { describe, expect, it } from 'vitest'
import {
  formatAge,
  formatAgeShort,
  formatAsOf,
  formatChange,
  formatPercent,
  formatPrice,
  formatAmount,
  pricePrecision,
  decimalsOf,
} from './format'

describe('price formatting per market', () => {
  it('shows a price in the decimals its instrument quotes in, never padded', () => {
    expect(formatPrice(0.6154, 'crypto', 'XRPUSDT')).toBe('0.6154')
    expect(formatChange(-0.0105, 'crypto', 'XRPUSDT', 0.6154)).toBe('−0.0105')
    expect(formatPrice(1.08457, 'fx', 'EURUSD')).toBe('1.08457')
    expect(formatPrice(151.234, 'fx', 'USDJPY')).toBe('151.234')
    expect(formatPrice(64321.5, 'crypto', 'BTCUSDT')).toBe('64,321.50')
    expect(pricePrecision('crypto', 'SHIBUSDT', 0.00001234)).toBe(8)
  })
  it('learns the scale from the most decimals seen, so a price ending in 0 keeps its width', () => {
    expect(formatPrice(0.16234, 'crypto', 'DOGEUSDT')).toBe('0.16234')
    expect(formatPrice(0.1623, 'crypto', 'DOGEUSDT')).toBe('0.16230')
    // A change computed by the service in floats (-1.2199999999999989) shows at the price's scale.
    expect(formatPrice(163.21, 'crypto', 'SOLUSDT')).toBe('163.21')
    expect(formatChange(-1.2199999999999989, 'crypto', 'SOLUSDT', 163.21)).toBe('−1.22')
  })
  it('ignores float noise when learning a scale', () => {
    expect(decimalsOf(0.1 + 0.2)).toBe(1)
    expect(decimalsOf(84252.88)).toBe(2)
    expect(decimalsOf(1.0812 * 3)).toBe(4)
    expect(decimalsOf(5000)).toBe(0)
  })
  it('keeps a floor by market and magnitude: 2 for indices and cn/hk stocks, 3 below 10 in hk', () => {
    expect(formatPrice(3.456, 'hk', '00700')).toBe('3.456')
    expect(formatPrice(345.6, 'hk', '00005')).toBe('345.60')
    expect(formatPrice(12.3, 'cn', '600519')).toBe('12.30')
    expect(formatPrice(5123.45, 'index', 'SPX')).toBe('5,123.45')
    expect(formatPrice(84000, 'crypto', 'BNBUSDT')).toBe('84,000.00')
  })
  it('shows a dash for missing values, never 0', () => {
    expect(formatPrice(null, 'fx', 'EURUSD')).toBe('—')
    expect(formatPercent(undefined)).toBe('—')
    expect(formatAmount(null)).toBe('—')
  })
  it('signs changes and percents', () => {
    expect(formatChange(0.0012, 'fx', 'EURUSD', 1.08)).toBe('+0.00120')
    expect(formatChange(-12.5, 'crypto', 'BTCUSDT', 64000)).toBe('−12.50')
    expect(formatPercent(-1.234)).toBe('−1.23%')
  })
  it('abbreviates amounts to three significant figures, and keeps small fractions readable', () => {
    expect(formatAmount(1_254_567)).toBe('1.25M')
    expect(formatAmount(12_345)).toBe('12.3K')
    expect(formatAmount(123_456_789_012)).toBe('123B')
    expect(formatAmount(999_999)).toBe('1.00M')
    expect(formatAmount(950)).toBe('950')
    expect(formatAmount(12.345)).toBe('12.35')
    expect(formatAmount(0.0512)).toBe('0.0512')
    expect(formatAmount(0.00012345)).toBe('0.000123')
    expect(formatAmount(0)).toBe('0')
  })
})

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

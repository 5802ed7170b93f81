import { describe, expect, it } from 'vitest'
import {
  decimalsOf,
  formatAmount,
  formatChange,
  formatPercent,
  formatPrice,
  pricePrecision,
} from './figure-text'

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

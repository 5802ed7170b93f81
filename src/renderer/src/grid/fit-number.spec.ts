import { describe, expect, it } from 'vitest'
import { fitAmount, fitChange, fitPercent, fitPrice, textCh, type FitBudget } from './fit-number'

function budget(ch: number): FitBudget & { overs: number } {
  const b = { ch, overs: 0, onOver: () => b.overs++ }
  return b
}

describe('figures that fit their column', () => {
  it('weighs digits as 1ch, separators as half, signs and units as more', () => {
    expect(textCh('20,000,000.00')).toBe(11.5)
    expect(textCh('−1.25M')).toBeCloseTo(1.4 + 3 + 0.5 + 1.8)
  })

  it('shows a price whole when it fits, and says nothing', () => {
    const b = budget(12)
    expect(fitPrice(20_000_000, 'crypto', 'XUSDT', b)).toBe('20,000,000.00')
    expect(b.overs).toBe(0)
  })

  it('drops the decimals of a price too wide for its column, then abbreviates, and asks for room', () => {
    const b = budget(11)
    expect(fitPrice(20_000_000, 'crypto', 'XUSDT', b)).toBe('20,000,000')
    expect(fitPrice(123_456_789_012.5, 'crypto', 'XUSDT', b)).toBe('123B')
    expect(b.overs).toBe(2)
  })

  it('keeps the sign of a shortened change and percent', () => {
    expect(fitChange(-12_345_678.91, 'crypto', 'XUSDT', 123_456_789, budget(8))).toBe('−12.3M')
    expect(fitChange(12_345_678.91, 'crypto', 'XUSDT', 123_456_789, budget(12))).toBe('+12,345,679')
    expect(fitPercent(12_345.67, budget(10))).toBe('+12,346%')
    expect(fitPercent(-0.96, budget(10))).toBe('−0.96%')
  })

  it('writes an amount past its column as an exponent, never wider', () => {
    const b = budget(6)
    expect(fitAmount(1.2e16, b)).toBe('1.2e16')
    expect(fitAmount(12_345, b)).toBe('12.3K')
    expect(b.overs).toBe(1)
  })

  it('never shortens a missing value: a dash', () => {
    expect(fitPrice(null, 'fx', 'EURUSD', budget(0.5))).toBe('—')
    expect(fitAmount(null, budget(0.5))).toBe('—')
  })

  it('never writes a figure wider than its column once shortened, whatever the value', () => {
    for (let exp = -9; exp <= 15; exp++) {
      for (const m of [1, 4.5678, 9.9999]) {
        const v = m * 10 ** exp
        const price = fitPrice(v, 'crypto', 'XUSDT', budget(14))
        expect(textCh(price), price).toBeLessThanOrEqual(14)
        const change = fitChange(-v, 'crypto', 'XUSDT', v, budget(14))
        expect(textCh(change), change).toBeLessThanOrEqual(14)
        const amount = fitAmount(v, budget(10))
        expect(textCh(amount), amount).toBeLessThanOrEqual(10)
      }
    }
  })
})

import { describe, expect, it } from 'vitest'
import { quoteSpread, spreadBps } from './spread'

describe('quoteSpread', () => {
  it('is ask minus bid, and in basis points of the mid', () => {
    const s = quoteSpread(99.5, 100.5)
    expect(s?.price).toBeCloseTo(1, 10)
    expect(s?.bps).toBeCloseTo(100, 10)
  })

  it('is nothing (never 0) where the service sends no bid or no ask', () => {
    expect(quoteSpread(null, 100)).toBeNull()
    expect(quoteSpread(100, null)).toBeNull()
    expect(spreadBps(null, null)).toBeNull()
  })

  it('is nothing where the mid is no positive price, and negative for a crossed book', () => {
    expect(quoteSpread(0, 0)).toBeNull()
    expect(quoteSpread(-1, 0.5)).toBeNull()
    expect(quoteSpread(101, 100)?.price).toBe(-1)
  })
})

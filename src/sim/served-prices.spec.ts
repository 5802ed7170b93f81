import { describe, expect, it } from 'vitest'
import { ServedPrices } from './served-prices'

describe('ServedPrices.lastServedAt', () => {
  it('matches a last as served, and for a quote served without one the mid of its bid and ask', () => {
    const served = new ServedPrices()
    served.record('crypto:BTCUSDT', { at: 1_000, via: 'rest', last: 100, bid: 99, ask: 101 })
    served.record('fx:EURUSD', { at: 1_000, via: 'stream', bid: 1.0841, ask: 1.0843 })
    served.record('fx:EURUSD', { at: 2_000, via: 'stream', bid: 1.0842, ask: 1.0843 })
    expect(served.lastServedAt('fx:EURUSD', 1.0842, 5_000)).toBe(1_000)
    expect(served.lastServedAt('fx:EURUSD', 1.08425, 5_000)).toBe(2_000)
    expect(served.lastServedAt('fx:EURUSD', 1.08425, 1_500)).toBeNull()
    // A row with a last is its last, not its mid.
    expect(served.lastServedAt('crypto:BTCUSDT', 100, 5_000)).toBe(1_000)
    expect(served.lastServedAt('crypto:BTCUSDT', 100.5, 5_000)).toBeNull()
  })
})

describe('ServedPrices kept off (demo mode, the soak)', () => {
  it('records nothing, and asking what was served throws instead of answering "never"', () => {
    const off = new ServedPrices(false)
    off.record('fx:EURUSD', { at: 1_000, via: 'stream', last: 1.1 })
    expect(() => off.lastServedAt('fx:EURUSD', 1.1, 2_000)).toThrow(/recordServed: false/)
    expect(() => off.between('fx:EURUSD', 0, 2_000)).toThrow(/recordServed: false/)
  })
})

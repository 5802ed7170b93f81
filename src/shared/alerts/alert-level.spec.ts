import { describe, expect, it } from 'vitest'
import { alertLevels, moveLevel } from './alert-level'

describe('alert levels', () => {
  it('gives one line per price level and none for a percent condition', () => {
    expect(alertLevels({ kind: 'above', price: 10 })).toEqual([{ level: 'price', price: 10 }])
    expect(alertLevels({ kind: 'channel', low: 1, high: 2, on: 'enter' })).toEqual([
      { level: 'low', price: 1 },
      { level: 'high', price: 2 },
    ])
    expect(alertLevels({ kind: 'movePct', pct: 3, minutes: 15 })).toEqual([])
  })

  it('moves a level and keeps the rest of the condition', () => {
    expect(moveLevel({ kind: 'crosses', price: 10 }, 'price', 12)).toEqual({
      ok: true,
      condition: { kind: 'crosses', price: 12 },
    })
    expect(moveLevel({ kind: 'channel', low: 1, high: 3, on: 'exit' }, 'high', 4)).toEqual({
      ok: true,
      condition: { kind: 'channel', low: 1, high: 4, on: 'exit' },
    })
  })

  it('refuses a level that is not there, a price not above zero, and crossed channel bounds', () => {
    expect(moveLevel({ kind: 'dayChangePct', pct: 2 }, 'price', 5).ok).toBe(false)
    expect(moveLevel({ kind: 'above', price: 10 }, 'price', 0).ok).toBe(false)
    expect(moveLevel({ kind: 'above', price: 10 }, 'price', Number.NaN).ok).toBe(false)
    const crossed = moveLevel({ kind: 'channel', low: 1, high: 3, on: 'enter' }, 'low', 5)
    expect(crossed).toEqual({
      ok: false,
      message: "the channel's lower bound must be below its upper bound",
    })
  })
})

import { describe, expect, it } from 'vitest'
import { tradedSince } from './traded-volume'
import { newSymbolSlot } from './quote-entry'

describe('tradedSince', () => {
  it('gives what traded since the last total: 0 first, never negative, held on a missing total', () => {
    const slot = newSymbolSlot()
    expect(tradedSince(slot, 1000)).toBe(0)
    expect(tradedSince(slot, 1250)).toBe(250)
    expect(tradedSince(slot, null)).toBe(0) // no total in this tick: the held one stands
    expect(slot.heldVolume).toBe(1250)
    expect(tradedSince(slot, 40)).toBe(0) // the total fell (a new day)
    expect(tradedSince(slot, 45)).toBe(5)
  })
})

import { describe, expect, it } from 'vitest'
import { DETAIL_SIZE } from '../../../shared/settings'
import { clampSize, sizeForKey, sizeForPointer } from './split-size'

describe('split size', () => {
  it('grows the chart with ArrowUp and PageUp, shrinks it with ArrowDown and PageDown', () => {
    expect(sizeForKey(0.45, 'ArrowUp')).toBe(0.5)
    expect(sizeForKey(0.45, 'ArrowDown')).toBe(0.4)
    expect(sizeForKey(0.45, 'PageUp')).toBe(0.6)
    expect(sizeForKey(0.45, 'PageDown')).toBe(0.3)
    expect(sizeForKey(0.45, 'x')).toBeNull()
  })

  it('stays within bounds: Home is the largest chart, End the smallest', () => {
    expect(sizeForKey(0.78, 'ArrowUp')).toBe(DETAIL_SIZE.max)
    expect(sizeForKey(0.45, 'Home')).toBe(DETAIL_SIZE.max)
    expect(sizeForKey(0.45, 'End')).toBe(DETAIL_SIZE.min)
    expect(clampSize(Number.NaN)).toBe(DETAIL_SIZE.default)
  })

  it('follows the pointer: the chart takes what lies below it', () => {
    expect(sizeForPointer(600, 100, 1000)).toBe(0.5)
    expect(sizeForPointer(1090, 100, 1000)).toBe(DETAIL_SIZE.min)
    expect(sizeForPointer(0, 100, 1000)).toBe(DETAIL_SIZE.max)
  })
})

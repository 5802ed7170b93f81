import { describe, expect, it } from 'vitest'
import { tileMove, wallColumns } from './wall-layout'

describe('the wall’s grid', () => {
  it('lays 4 tiles as 2 x 2 and 30 as 6 x 5', () => {
    expect(wallColumns(4)).toBe(2)
    expect(wallColumns(12)).toBe(4)
    expect(wallColumns(30)).toBe(6)
  })

  it('moves by one along a row and by a row up and down, never off the wall', () => {
    // 10 tiles in 4 columns: rows 0-3, 4-7, 8-9.
    expect(tileMove(0, 'ArrowLeft', 10, 4)).toBe(0)
    expect(tileMove(3, 'ArrowRight', 10, 4)).toBe(4)
    expect(tileMove(1, 'ArrowDown', 10, 4)).toBe(5)
    expect(tileMove(6, 'ArrowDown', 10, 4)).toBe(6)
    expect(tileMove(5, 'ArrowUp', 10, 4)).toBe(1)
    expect(tileMove(1, 'ArrowUp', 10, 4)).toBe(1)
    expect(tileMove(5, 'End', 10, 4)).toBe(9)
    expect(tileMove(5, 'Home', 10, 4)).toBe(0)
    expect(tileMove(5, 'x', 10, 4)).toBeNull()
  })
})

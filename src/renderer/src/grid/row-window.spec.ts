import { describe, expect, it } from 'vitest'
import { rowWindow, scrollToRow } from './row-window'

const base = { scrollTop: 0, viewportHeight: 300, bodyTop: 100, rowHeight: 30, overscan: 2 }

describe('rowWindow', () => {
  it('renders the rows in the viewport plus the overscan, clamped to the list', () => {
    // Rows start 100 px down: the first 300 px show rows 0..6 (200 px of rows).
    expect(rowWindow({ ...base, total: 200 })).toEqual({ first: 0, count: 9 })
    // Scrolled to 1000: rows from (1000 - 100) / 30 = 30 to 40, two more either side.
    expect(rowWindow({ ...base, scrollTop: 1000, total: 200 })).toEqual({ first: 28, count: 14 })
    expect(rowWindow({ ...base, scrollTop: 6000, total: 200 })).toEqual({ first: 194, count: 6 })
  })

  it('renders every row when there is no viewport to measure', () => {
    expect(rowWindow({ ...base, viewportHeight: 0, total: 120 })).toEqual({ first: 0, count: 120 })
  })
})

describe('scrollToRow', () => {
  it('scrolls only as far as needed to show the whole row', () => {
    expect(scrollToRow({ ...base, scrollTop: 1000 }, 32)).toBe(1000)
    expect(scrollToRow({ ...base, scrollTop: 1000 }, 10)).toBe(400)
    expect(scrollToRow({ ...base, scrollTop: 1000 }, 50)).toBe(100 + 51 * 30 - 300)
  })
})

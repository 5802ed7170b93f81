import { describe, expect, it } from 'vitest'
import { classifyChartUpdate } from './chart-update'

describe('classifyChartUpdate', () => {
  const shape = (length: number, firstTime: number, lastTime: number) => ({
    length,
    firstTime,
    lastTime,
  })

  it('fits a new series (first load, interval switch, refetch)', () => {
    expect(classifyChartUpdate(null, shape(300, 0, 299), { min: null, max: null })).toBe('history')
    expect(classifyChartUpdate(shape(300, 0, 299), shape(300, 5, 304), { min: 0, max: 299 })).toBe(
      'history',
    )
    expect(classifyChartUpdate(shape(300, 0, 299), shape(310, 0, 309), { min: 0, max: 299 })).toBe(
      'history',
    )
  })

  it('follows a live bar or one appended bar while the whole series is in view', () => {
    expect(classifyChartUpdate(shape(300, 0, 299), shape(301, 0, 300), { min: 0, max: 299 })).toBe(
      'follow',
    )
    expect(classifyChartUpdate(shape(300, 0, 299), shape(300, 0, 299), { min: 0, max: 299 })).toBe(
      'follow',
    )
  })

  it("keeps the trader's zoom when a live bar moves or one is appended", () => {
    expect(
      classifyChartUpdate(shape(300, 0, 299), shape(301, 0, 300), { min: 100, max: 200 }),
    ).toBe('keep')
    expect(classifyChartUpdate(shape(300, 0, 299), shape(300, 0, 299), { min: 0, max: 150 })).toBe(
      'keep',
    )
  })
})

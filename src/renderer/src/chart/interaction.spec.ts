import { describe, expect, it } from 'vitest'
import type uPlot from 'uplot'
import {
  alertKeyStep,
  chartKeyAction,
  fitRange,
  loneBarRange,
  priceAtY,
  zoomStep,
  ZOOM_STEP,
} from './interaction'

const key = (
  k: string,
  mods: Partial<Record<'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {},
) => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
})

describe('chart interaction rules', () => {
  it('an arrow on an alert line moves it a hundredth of the visible range, never less than a tick', () => {
    expect(alertKeyStep({ min: 100, max: 200 }, 2)).toBe(1)
    expect(alertKeyStep({ min: 1.1, max: 1.1001 }, 4)).toBeCloseTo(0.0001, 10)
    expect(alertKeyStep(undefined, 2)).toBe(0.01)
  })

  it('reads the price under the pointer at the symbol precision, and nothing off the scale', () => {
    expect(priceAtY(10, (y) => 100 - y / 3, 2)).toBe(96.67)
    expect(priceAtY(10, () => Number.NaN, 2)).toBeNull()
    expect(priceAtY(10, () => -1, 2)).toBeNull()
  })

  it('A opens the alert form and the menu key (or Shift+F10) the menu; shortcuts with Ctrl are not the chart’s', () => {
    expect(chartKeyAction(key('a'))).toBe('alert')
    expect(chartKeyAction(key('ContextMenu'))).toBe('menu')
    expect(chartKeyAction(key('F10', { shiftKey: true }))).toBe('menu')
    expect(chartKeyAction(key('F10'))).toBeNull()
    expect(chartKeyAction(key('a', { ctrlKey: true }))).toBeNull()
  })

  it('fits the x range to the bars that exist: a lone bar gets one bar each side, not years', () => {
    expect(fitRange([7200], 3600)).toEqual({ min: 3600, max: 10800 })
    expect(fitRange([0, 60, 120], 60)).toEqual({ min: 0, max: 120 })
    expect(fitRange([], 60)).toBeNull()
  })

  it('keeps a lone bar on a bar-wide axis where uPlot would pick 1000 days of its own', () => {
    const range = loneBarRange(() => 3600)
    const oneBar = { data: [[7200]] } as unknown as uPlot
    expect(range(oneBar, 7200, 7200 + 86_400_000, 'x')).toEqual([3600, 10800])
    const twoBars = { data: [[0, 3600]] } as unknown as uPlot
    expect(range(twoBars, 0, 3600, 'x')).toEqual([0, 3600])
  })

  it('zooms around the pointer within the bars, and asks for older bars when out meets the first', () => {
    const bars = { first: 0, last: 1000, barSeconds: 1 }
    const zin = zoomStep({ min: 0, max: 1000 }, 0.5, false, bars)
    expect(zin.max - zin.min).toBeCloseTo(1000 / ZOOM_STEP)
    expect((zin.min + zin.max) / 2).toBeCloseTo(500)
    expect(zin.older).toBe(false)
    const zout = zoomStep({ min: 400, max: 600 }, 0.5, true, bars)
    expect(zout).toEqual({ min: 375, max: 625, older: false })
    // The whole series in view: zooming out can only mean older bars.
    expect(zoomStep({ min: 0, max: 1000 }, 0.5, true, bars)).toEqual({
      min: 0,
      max: 1000,
      older: true,
    })
    expect(chartKeyAction(key('-'))).toBe('zoomOut')
    expect(chartKeyAction(key('+'))).toBe('zoomIn')
  })
})

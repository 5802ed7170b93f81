import { describe, expect, it } from 'vitest'
import { NO_STUDIES } from '../../../shared/chart-prefs'
import type { BarColumns } from './plot/bar-columns'
import { compareLine, percentFrom, priceOverlays, rsiOverlay } from './chart-studies'

const cols: BarColumns = [
  [0, 60, 120, 180],
  [10, 11, 12, 13],
  [11, 12, 13, 14],
  [9, 10, 11, 12],
  [10, 12, 11, 13],
  [5, 5, 5, 5],
]

describe('chart studies', () => {
  it('draws one line per SMA and EMA period, VWAP only on intraday bars', () => {
    const studies = { ...NO_STUDIES, sma: [2], ema: [3], vwap: true }
    expect(priceOverlays(cols, studies, '1h').map((o) => o.label)).toEqual([
      'SMA 2',
      'EMA 3',
      'VWAP',
    ])
    expect(priceOverlays(cols, studies, '1d').map((o) => o.label)).toEqual(['SMA 2', 'EMA 3'])
    expect(priceOverlays(cols, studies, '1h')[0]?.values).toEqual([null, 11, 11.5, 12])
  })

  it('has an RSI pane only when RSI is on', () => {
    expect(rsiOverlay(cols, NO_STUDIES)).toBeNull()
    expect(rsiOverlay(cols, { ...NO_STUDIES, rsi: 2 })?.values.length).toBe(4)
  })

  it('puts the other symbol on the first symbol scale, equal at the first visible bar', () => {
    // Other: 100 -> 110 -> (missing) -> 90; base at index 1: main 12, other 110.
    const other = { times: [0, 60, 180], closes: [100, 110, 90] }
    const line = compareLine(cols, other, 1)
    expect(line.base).toBe(12)
    expect(line.values.map((v) => (v === null ? null : Number(v.toFixed(4))))).toEqual([
      10.9091,
      12,
      null,
      9.8182,
    ])
    // The percent axis then reads -18.2% for the other symbol's last bar (90 / 110 - 1).
    expect(percentFrom(12, line.values[3]!)).toBe('-18.2%')
  })

  it('moves the base to the next bar both symbols have', () => {
    const line = compareLine(cols, { times: [180], closes: [50] }, 0)
    expect(line.base).toBe(13)
    expect(line.values).toEqual([null, null, null, 13])
  })
})

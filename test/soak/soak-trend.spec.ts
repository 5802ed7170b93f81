import { describe, expect, it } from 'vitest'
import { fitLine, plotSvg, trendOf, type Series } from '../../scripts/soak-trend'

const series = (f: (t: number) => number, over: Partial<Series> = {}): Series => ({
  name: 'heap',
  unit: 'MB',
  points: Array.from({ length: 60 }, (_, i) => [i * 60, f(i * 60)] as [number, number]),
  floor: 0.5,
  share: 0.05,
  ...over,
})

describe('the soak trend', () => {
  it('fits a line', () => {
    const { slope, at } = fitLine([
      [0, 1],
      [1, 3],
      [2, 5],
    ])
    expect(slope).toBeCloseTo(2)
    expect(at(3)).toBeCloseTo(7)
  })

  it('passes a flat metric with noise and a warm-up climb in the first half', () => {
    const t = trendOf(series((s) => 5 + (s < 1200 ? s / 600 : 2) + Math.sin(s) * 0.2))
    expect(t.grows).toBe(false)
  })

  it('fails a leak of 2 MB an hour on a 5 MB heap, whatever the last sample says', () => {
    const leak = trendOf(series((s) => 5 + (2 * s) / 3600 + (s === 3540 ? -3 : 0)))
    expect(leak.slopePerHour).toBeCloseTo(2, 1)
    expect(leak.grows).toBe(true)
  })

  it('reports the slope of a metric it does not judge, and never fails it', () => {
    const t = trendOf(series((s) => 5 + (2 * s) / 3600, { judged: false }))
    expect(t.slopePerHour).toBeCloseTo(2, 1)
    expect(t.judged).toBe(false)
    expect(t.grows).toBe(false)
  })

  it('is not failed by one outlier at the end of a flat run', () => {
    expect(trendOf(series((s) => 5 + (s === 3540 ? 4 : 0))).grows).toBe(false)
  })

  it('draws one panel per metric, a failing one marked', () => {
    const svg = plotSvg('soak', [series(() => 5), series((s) => s, { name: 'nodes', unit: '' })])
    expect(svg.startsWith('<svg')).toBe(true)
    expect(svg.match(/<polyline/g)).toHaveLength(2)
    expect(svg).toContain('nodes () GROWS')
  })
})

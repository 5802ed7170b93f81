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

  // Memory per hour: one allowance in MB/h, the same for a 3-minute and a 2-hour run.
  const run = (minutes: number, f: (t: number) => number, perHour = 3): Series =>
    series(f, {
      points: Array.from({ length: 37 }, (_, i) => {
        const t = (i * minutes * 60) / 36
        return [t, f(t)] as [number, number]
      }),
      perHour,
    })
  const climb = (mbPerHour: number) => (t: number) =>
    30 + (mbPerHour * t) / 3600 + Math.sin(t) * 0.001

  it('judges memory in MB/h with one allowance: a steady 30 MB/h climb fails a 3-minute and a 2-hour run alike', () => {
    for (const minutes of [3, 120]) {
      const t = trendOf(run(minutes, climb(30)))
      expect(t.slopePerHour, `${minutes} min`).toBeCloseTo(30, 0)
      expect(t.allowed).toBe(3)
      expect(t.grows, `${minutes} min`).toBe(true)
    }
    expect(trendOf(run(120, climb(10))).grows).toBe(true)
    for (const minutes of [3, 120]) expect(trendOf(run(minutes, climb(2))).grows).toBe(false)
  })

  it("does not call a rise below the measurement's resolution growth: a one-cycle CI run's last first-time events", () => {
    // The page heap of a clean-clone CI desk soak (2.4 min, 2026-11-27): 6.99 -> 7.07 MB over the
    // second half, 5.2 MB/h with an interval of [4.1, 6.5], which failed before the floor.
    const heap: Array<[number, number]> = [
      [0, 5.22],
      [5, 5.29],
      [10, 5.34],
      [15, 5.38],
      [20, 5.39],
      [25, 6.41],
      [30, 6.16],
      [35, 6.18],
      [40, 6.23],
      [45, 6.42],
      [50, 6.3],
      [55, 6.28],
      [60, 6.27],
      [70, 6.33],
      [70, 6.33],
      [77, 6.99],
      [80, 6.97],
      [85, 6.99],
      [97, 7],
      [97, 7],
      [100, 7.03],
      [111, 7.02],
      [112, 7.06],
      [115, 7.03],
      [120, 7.04],
      [129, 7.04],
      [130, 7.06],
      [135, 7.06],
      [140, 7.06],
      [144, 7.07],
    ]
    const t = trendOf(series(() => 0, { points: heap, perHour: 3, floor: 0.5 }))
    expect(t.slopeLowPerHour).toBeGreaterThan(3)
    expect(t.grows).toBe(false)
    // The same curve stretched to an hour (times and rises x25) rises 2 MB over its half: growth.
    const hour = heap.map(([s, v]): [number, number] => [s * 25, 5.22 + (v - 5.22) * 25])
    expect(trendOf(series(() => 0, { points: hour, perHour: 3, floor: 0.5 })).grows).toBe(true)
  })

  it("passes a 3-minute run's V8 sawtooth (tens of MB/h either way) that it cannot tell from noise", () => {
    // The host's Pss_Anon in a real 3-minute desk soak (5 s apart): a 64 MB/h slope over the half.
    const anon = [
      40.63, 40.38, 39.41, 39.48, 38.4, 38.8, 38.85, 38.89, 38.89, 38.93, 39.35, 38.86, 39.34,
      38.78, 39.13, 39.61, 39.75, 32.58, 32.74, 32.41, 33.91, 33.92, 29.73, 29.91, 30.04, 31.32,
      30.29, 29.74, 31.23, 33.71, 33.86, 33.9, 33.9, 30.91, 32.17, 32.18, 32.37,
    ]
    const t = trendOf(series(() => 0, { points: anon.map((v, i) => [i * 5, v]), perHour: 3 }))
    expect(t.slopePerHour).toBeGreaterThan(30)
    expect(t.slopeLowPerHour).toBeLessThan(3)
    expect(t.grows).toBe(false)
  })

  it('draws one panel per metric, a failing one marked', () => {
    const svg = plotSvg('soak', [series(() => 5), series((s) => s, { name: 'nodes', unit: '' })])
    expect(svg.startsWith('<svg')).toBe(true)
    expect(svg.match(/<polyline/g)).toHaveLength(2)
    expect(svg).toContain('nodes () GROWS')
  })
})

import { describe, expect, it } from 'vitest'
import {
  SPARK_MAX_STEP_MS,
  SPARK_POINTS,
  SPARK_WINDOW_MS,
  SparkSeries,
  sparkPoints,
} from './sparkline'

/** Ticks every `every` ms from `from` for `ms`, a random walk; returns the series and the end time. */
function feed(series: SparkSeries, from: number, ms: number, every: number): number {
  let price = 100
  let t = from
  for (; t <= from + ms; t += every) {
    price += Math.sin(t / 700) * 0.3
    series.push(price, t)
  }
  return t - every
}

describe('the sparkline series', () => {
  it('has a shape within seconds of a fresh start: at least 10 points after 10 s of ticks', () => {
    const s = new SparkSeries()
    feed(s, 0, 10_000, 250)
    expect(s.length).toBeGreaterThanOrEqual(10)
    expect(new Set(s.toArray()).size).toBeGreaterThanOrEqual(10)
  })

  it('takes every tick of a feed ticking about every 500 ms at first, jitter or not', () => {
    // Demo mode ticks every 500 ms; delivered, the gaps wobble either side of it. A step equal to
    // the feed's period would drop every tick that came a little early into the point before.
    const s = new SparkSeries()
    let t = 0
    for (let i = 0; i < 20; i++) {
      t += i % 2 === 0 ? 470 : 530
      s.push(100 + i, t)
    }
    expect(s.length).toBe(20)
  })

  it('keeps at most SPARK_POINTS over the last hour, and adds a point at most once a minute then', () => {
    const s = new SparkSeries()
    const end = feed(s, 0, 3 * SPARK_WINDOW_MS, 1000)
    expect(s.length).toBeLessThanOrEqual(SPARK_POINTS)
    expect(end - s.timeAt(0)).toBeLessThanOrEqual(SPARK_WINDOW_MS)
    expect(end - s.timeAt(0)).toBeGreaterThan(SPARK_WINDOW_MS * 0.9)
    let added = 0
    for (let t = end + 1000; t <= end + 5 * 60_000; t += 1000) if (s.push(100, t)) added++
    expect(added).toBeLessThanOrEqual(5)
    expect(added).toBeGreaterThanOrEqual(4)
  })

  it('is seeded with the hour before the first live price; later or older bars are left out', () => {
    const now = 10 * SPARK_WINDOW_MS
    const s = new SparkSeries()
    s.push(200, now - 1000)
    const bars = Array.from({ length: 90 }, (_, i) => ({
      t: now - (90 - i) * SPARK_MAX_STEP_MS,
      v: 150 + i,
    }))
    expect(s.seed([...bars, { t: now, v: 999 }], now)).toBe(true)
    const values = s.toArray()
    expect(values.at(-1)).toBe(200)
    expect(values).not.toContain(999)
    expect(s.timeAt(0)).toBeGreaterThanOrEqual(now - SPARK_WINDOW_MS)
    expect(s.length).toBeLessThanOrEqual(SPARK_POINTS)
    expect(s.length).toBeGreaterThanOrEqual(SPARK_POINTS / 2)
    expect(s.seed([], now)).toBe(false)
  })

  it('places points by time: an hour of bars and a minute of live prices share one line', () => {
    const s = new SparkSeries()
    s.seed(
      [
        { t: 0, v: 1 },
        { t: 30 * 60_000, v: 2 },
      ],
      60 * 60_000,
    )
    s.push(3, 60 * 60_000)
    expect(sparkPoints(s, 100, 10)).toBe('0.0,10.0 50.0,5.0 100.0,0.0')
  })
})

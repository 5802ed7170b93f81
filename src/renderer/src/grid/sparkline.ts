/**
 * The sparkline: the last hour, at most SPARK_POINTS points, x by time. It is seeded from the
 * 1-minute bars the app already has (the bars cache, bars built from ticks, bars fetched for a
 * chart) and live prices extend it. With no history yet it shows the session so far: points come
 * every SPARK_MIN_STEP_MS at first, so a fresh start has a shape within seconds, and the step
 * grows with the span (span / SPARK_POINTS, at most a minute), so after the first minutes a row
 * gains a point, and its line a redraw, every few seconds at most, once a minute after an hour.
 */
export const SPARK_POINTS = 60
export const SPARK_WINDOW_MS = 60 * 60_000
/**
 * Half of demo mode's 500 ms tick period: with a step equal to the period, every tick delivered a
 * little early overwrote the point before it, and a fresh demo row gained about one point a second.
 */
export const SPARK_MIN_STEP_MS = 250
export const SPARK_MAX_STEP_MS = 60_000
/** What the Trend column's header says the line shows. */
export const SPARK_PERIOD_WORDS =
  'Trend: the last hour (since start until an hour is known), from 1-minute bars and live prices'

/** A past point (a 1-minute bar's close at its open time) a series can be seeded with. */
export interface SparkPoint {
  t: number
  v: number
}

/**
 * Recent last prices for a row's sparkline, kept in the renderer only. Ticks within a step
 * overwrite the newest point, so 10k ticks/s cost a number write, not a redraw.
 */
export class SparkSeries {
  private times: number[] = []
  private values: number[] = []
  private lastSampleAt = Number.NEGATIVE_INFINITY
  /** Bumped by every change: a drawn line knows whether it is still current. */
  version = 0

  constructor(readonly capacity = SPARK_POINTS) {}

  /** Records a price; returns true when a new point was added (the line's shape moved on). */
  push(price: number, now: number): boolean {
    this.version++
    const n = this.values.length
    if (n > 0 && now - this.lastSampleAt < this.step(now)) {
      this.values[n - 1] = price
      return false
    }
    this.lastSampleAt = now
    this.times.push(now)
    this.values.push(price)
    this.trim(now)
    return true
  }

  /**
   * History from before the first live point (bars' closes, oldest first): prepended, the
   * oldest beyond the window or the capacity left out. Returns true when the line changed.
   */
  seed(points: readonly SparkPoint[], now: number): boolean {
    const firstLive = this.times[0] ?? Number.POSITIVE_INFINITY
    const from = now - SPARK_WINDOW_MS
    const past = points.filter((p) => p.t < firstLive && p.t >= from && Number.isFinite(p.v))
    if (past.length === 0) return false
    this.times = [...past.map((p) => p.t), ...this.times]
    this.values = [...past.map((p) => p.v), ...this.values]
    this.trim(now)
    this.version++
    return true
  }

  get length(): number {
    return this.values.length
  }

  /** The i-th oldest point kept. */
  at(i: number): number {
    return this.values[i] ?? 0
  }

  timeAt(i: number): number {
    return this.times[i] ?? 0
  }

  toArray(): number[] {
    return this.values.slice()
  }

  private step(now: number): number {
    const span = now - (this.times[0] ?? now)
    return Math.min(SPARK_MAX_STEP_MS, Math.max(SPARK_MIN_STEP_MS, span / this.capacity))
  }

  private trim(now: number): void {
    let drop = 0
    while (drop < this.times.length - 2 && (this.times[drop] ?? now) < now - SPARK_WINDOW_MS) drop++
    if (drop > 0) {
      this.times.splice(0, drop)
      this.values.splice(0, drop)
    }
    if (this.values.length <= this.capacity) return
    // Full: every other point of the older part goes (the newest half keeps its detail).
    const keepT: number[] = []
    const keepV: number[] = []
    const half = this.values.length - Math.floor(this.capacity / 2)
    for (let i = 0; i < this.values.length; i++) {
      if (i < half && i % 2 === 1) continue
      keepT.push(this.times[i] as number)
      keepV.push(this.values[i] as number)
    }
    this.times = keepT
    this.values = keepV
  }
}

/** What sparkPoints reads: an array, or a SparkSeries read in place (no copy per redraw). */
export interface SparkValues {
  readonly length: number
  at(i: number): number | undefined
  /** When given, x is by time (a seeded hour and live seconds share one line); else by index. */
  timeAt?(i: number): number
}

/** SVG polyline points for `values` scaled into width x height (y grows downward). */
export function sparkPoints(values: SparkValues, width: number, height: number): string {
  const n = values.length
  if (n < 2) return ''
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  for (let i = 0; i < n; i++) {
    const v = values.at(i) ?? 0
    if (v < min) min = v
    if (v > max) max = v
  }
  const span = max - min
  const timeAt = values.timeAt?.bind(values)
  const t0 = timeAt ? timeAt(0) : 0
  const tSpan = timeAt ? timeAt(n - 1) - t0 : 0
  const dx = width / (n - 1)
  let out = ''
  for (let i = 0; i < n; i++) {
    const v = values.at(i) ?? min
    const x = timeAt && tSpan > 0 ? ((timeAt(i) - t0) / tSpan) * width : i * dx
    const y = span === 0 ? height / 2 : height - ((v - min) / span) * height
    out += `${i === 0 ? '' : ' '}${x.toFixed(1)},${y.toFixed(1)}`
  }
  return out
}

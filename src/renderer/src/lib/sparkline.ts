/**
 * The sparkline: the last five minutes, one point per 5 s. A step of a second showed only the
 * last minute and redrew every line in view every second, which at rest was about half of the
 * page's raster time (render bench trace); the Last cell carries the second-by-second moves.
 */
export const SPARK_POINTS = 60
export const SPARK_STEP_MS = 5_000

/**
 * Recent last prices for a row's sparkline, kept in the renderer only. One sample per `stepMs`
 * (later ticks in the same step overwrite it), so 10k ticks/s cost a number write, not a redraw.
 */
export class SparkSeries {
  private readonly values: Float64Array
  private count = 0
  private start = 0
  private lastSampleAt = Number.NEGATIVE_INFINITY
  /** Bumped by every push: a drawn line knows whether it is still current. */
  version = 0

  constructor(
    readonly capacity = SPARK_POINTS,
    private readonly stepMs = SPARK_STEP_MS,
  ) {
    this.values = new Float64Array(capacity)
  }

  /** Records a price; returns true when a new point was added (the line's shape moved on). */
  push(price: number, now: number): boolean {
    this.version++
    if (this.count > 0 && now - this.lastSampleAt < this.stepMs) {
      this.values[(this.start + this.count - 1) % this.capacity] = price
      return false
    }
    this.lastSampleAt = now
    if (this.count < this.capacity) {
      this.values[(this.start + this.count) % this.capacity] = price
      this.count++
    } else {
      this.values[this.start] = price
      this.start = (this.start + 1) % this.capacity
    }
    return true
  }

  get length(): number {
    return this.count
  }

  /** The i-th oldest point kept. */
  at(i: number): number {
    return this.values[(this.start + i) % this.capacity] ?? 0
  }

  toArray(): number[] {
    const out: number[] = []
    for (let i = 0; i < this.count; i++) out.push(this.at(i))
    return out
  }
}

/** What sparkPoints reads: an array, or a SparkSeries read in place (no copy per redraw). */
export interface SparkValues {
  readonly length: number
  at(i: number): number | undefined
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
  const dx = width / (n - 1)
  let out = ''
  for (let i = 0; i < n; i++) {
    const v = values.at(i) ?? min
    const y = span === 0 ? height / 2 : height - ((v - min) / span) * height
    out += `${i === 0 ? '' : ' '}${(i * dx).toFixed(1)},${y.toFixed(1)}`
  }
  return out
}

/**
 * The soak's verdict and picture: a robust line (Theil-Sen) through the second half of a metric's
 * samples (the first half holds the warm-up: caches filling, the JIT settling), so one noisy
 * sample at either end cannot pass or fail a run the way "first vs last" could. A metric grows
 * when that line rises over the half by more than its allowance (an absolute floor or a share of
 * its median, whichever is larger). Memory is judged per hour instead (`perHour`): it grows when
 * the run shows, at 95 %, a slope above the allowance in MB/h (the low end of Sen's interval for
 * the line's slope), one allowance whatever the run's length. A short run's interval is wide (a
 * 3-minute run sees V8's sawtooth, tens of MB/h either way), so it catches only a steep climb; a
 * long run's is narrow, so the allowance itself is what it judges. A per-hour verdict also needs
 * the line to rise over the half by more than `floor`, the measurement's resolution: a run of one
 * cycle (CI's 2.4 minutes) still meets its day's events for the first time in its second half,
 * and 0.1 MB of that over 70 s reads as 5 MB/h with a narrow interval (a clean-clone CI run of
 * 2026-11-27 failed so, page heap 6.99 -> 7.07 MB). An hour at the allowance rises 1.5 MB over
 * its half, far above the floor: long runs are judged by the allowance alone.
 */

export interface Series {
  name: string
  unit: string
  /** [seconds since start, value] */
  points: Array<[number, number]>
  /**
   * Allowed rise over the second half: max(floor, share x median). For a `perHour` series: the
   * smallest rise over the half that can count as growth at all (the measurement's resolution).
   */
  floor: number
  share: number
  /** When set, judged by slope instead: the allowed growth per hour, whatever the run length. */
  perHour?: number
  /**
   * false: plotted and reported, never a verdict (a figure that moves with things outside the
   * app, such as PSS, whose share of shared pages changes as other processes come and go).
   */
  judged?: boolean
}

export interface Trend {
  name: string
  unit: string
  first: number
  last: number
  median: number
  /** Per hour, from the second half's line. */
  slopePerHour: number
  /** Sen's 95 % interval for slopePerHour (the growth the run can tell apart from noise). */
  slopeLowPerHour: number
  slopeHighPerHour: number
  /** The line's rise across the second half. */
  rise: number
  /** The allowed rise over the half, or for a `perHour` series the allowed MB/h. */
  allowed: number
  judged: boolean
  grows: boolean
}

/**
 * Theil-Sen: the median of the slopes between every pair of samples, through the median point.
 * One outlier (a GC that ran late, a page mid-repaint) moves it hardly at all, unlike least squares.
 */
export function fitLine(points: ReadonlyArray<[number, number]>): {
  slope: number
  /** Sen's (1968) 95 % interval for the slope, from the order of the pairwise slopes. */
  low: number
  high: number
  at: (t: number) => number
} {
  const n = points.length
  if (n < 2) return { slope: 0, low: 0, high: 0, at: () => points[0]?.[1] ?? 0 }
  const slopes: number[] = []
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const [xi, yi] = points[i] as [number, number]
      const [xj, yj] = points[j] as [number, number]
      if (xj !== xi) slopes.push((yj - yi) / (xj - xi))
    }
  const slope = medianOf(slopes)
  const intercept = medianOf(points.map(([x, y]) => y - slope * x))
  slopes.sort((a, b) => a - b)
  const spread = 1.96 * Math.sqrt((n * (n - 1) * (2 * n + 5)) / 18)
  const last = slopes.length - 1
  const low = slopes[Math.max(0, Math.floor((slopes.length - spread) / 2))] ?? slope
  const high = slopes[Math.min(last, Math.ceil((slopes.length + spread) / 2))] ?? slope
  return { slope, low, high, at: (t) => intercept + slope * t }
}

function medianOf(values: number[]): number {
  if (values.length === 0) return 0
  const v = values.slice().sort((a, b) => a - b)
  const m = Math.floor(v.length / 2)
  return v.length % 2 ? (v[m] as number) : ((v[m - 1] as number) + (v[m] as number)) / 2
}

export function trendOf(s: Series): Trend {
  const half = s.points.slice(Math.floor(s.points.length / 2))
  const line = fitLine(half)
  const t0 = half[0]?.[0] ?? 0
  const t1 = half.at(-1)?.[0] ?? 0
  const values = s.points.map((p) => p[1]).sort((a, b) => a - b)
  const median = values[Math.floor(values.length / 2)] ?? 0
  const rise = line.at(t1) - line.at(t0)
  const allowed = Math.max(s.floor, s.share * Math.abs(median))
  const judged = s.judged !== false
  return {
    name: s.name,
    unit: s.unit,
    first: s.points[0]?.[1] ?? 0,
    last: s.points.at(-1)?.[1] ?? 0,
    median,
    slopePerHour: line.slope * 3600,
    slopeLowPerHour: line.low * 3600,
    slopeHighPerHour: line.high * 3600,
    rise,
    allowed: s.perHour ?? allowed,
    judged,
    grows:
      judged &&
      (s.perHour === undefined ? rise > allowed : line.low * 3600 > s.perHour && rise > s.floor),
  }
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** Small multiples, one panel per metric, each with its second-half line dashed. */
export function plotSvg(title: string, series: readonly Series[]): string {
  const W = 360
  const H = 150
  const cols = 2
  const rows = Math.ceil(series.length / cols)
  const pad = { l: 52, r: 12, t: 28, b: 26 }
  let body = ''
  series.forEach((s, i) => {
    const x0 = (i % cols) * W
    const y0 = 30 + Math.floor(i / cols) * H
    const pts = s.points
    const ts = pts.map((p) => p[0])
    const vs = pts.map((p) => p[1])
    const tMin = Math.min(...ts, 0)
    const tMax = Math.max(...ts, 1)
    let vMin = Math.min(...vs)
    let vMax = Math.max(...vs)
    if (!(vMax > vMin)) {
      vMin -= 1
      vMax += 1
    }
    const span = vMax - vMin
    vMin -= span * 0.1
    vMax += span * 0.1
    const px = (t: number): number =>
      x0 + pad.l + ((t - tMin) / (tMax - tMin)) * (W - pad.l - pad.r)
    const py = (v: number): number =>
      y0 + pad.t + (1 - (v - vMin) / (vMax - vMin)) * (H - pad.t - pad.b)
    const line = pts.map(([t, v]) => `${px(t).toFixed(1)},${py(v).toFixed(1)}`).join(' ')
    const trend = trendOf(s)
    const half = pts.slice(Math.floor(pts.length / 2))
    const fit = fitLine(half)
    const a = half[0]?.[0] ?? 0
    const b = half.at(-1)?.[0] ?? 0
    const colour = trend.grows ? '#c62828' : '#1565c0'
    body +=
      `<text x="${x0 + pad.l}" y="${y0 + 18}" font-size="12" font-weight="600">${esc(s.name)} (${esc(s.unit)})${trend.grows ? ' GROWS' : ''}${trend.judged ? '' : ' (not judged)'}</text>` +
      `<text x="${x0 + 4}" y="${(py(vMax) + 10).toFixed(1)}" font-size="10">${fmt(vMax)}</text>` +
      `<text x="${x0 + 4}" y="${py(vMin).toFixed(1)}" font-size="10">${fmt(vMin)}</text>` +
      `<text x="${x0 + W - pad.r}" y="${y0 + H - 8}" font-size="10" text-anchor="end">${fmt(tMax / 60)} min</text>` +
      `<rect x="${x0 + pad.l}" y="${y0 + pad.t}" width="${W - pad.l - pad.r}" height="${H - pad.t - pad.b}" fill="none" stroke="#ccc"/>` +
      `<polyline points="${line}" fill="none" stroke="${colour}" stroke-width="1.2"/>` +
      `<line x1="${px(a).toFixed(1)}" y1="${py(fit.at(a)).toFixed(1)}" x2="${px(b).toFixed(1)}" y2="${py(fit.at(b)).toFixed(1)}" stroke="#333" stroke-dasharray="4 3"/>`
  })
  const height = 30 + rows * H
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${cols * W}" height="${height}" viewBox="0 0 ${cols * W} ${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/><text x="8" y="20" font-size="14" font-weight="700">${esc(title)}</text>${body}</svg>\n`
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2)
}

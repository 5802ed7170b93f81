/**
 * Shared shapes and arithmetic for the benchmarks. Every benchmark returns rows for the table and
 * a flat JSON section; targets are checked here so PASS/FAIL reads the same everywhere.
 */

export interface BenchRow {
  metric: string
  value: number
  unit: string
  /** Human-readable target, e.g. ">= 100000"; null for report-only rows. */
  target: string | null
  pass: boolean | null
  note?: string
}

export interface BenchResult {
  name: string
  rows: BenchRow[]
  /** Its section of `--json`: flat figures, or one object a case (scale). */
  json: Record<string, unknown> | Array<Record<string, unknown>>
  /** Why the benchmark could not run (no Chromium, no built renderer); rows are then empty. */
  skipped?: string
}

export interface BenchContext {
  full: boolean
  /** --trace: benchmarks that can also record a Chromium trace and print its breakdown. */
  trace?: boolean
  /** --short: the regression guard's CI form (render measures its hot phase alone). */
  short?: boolean
  log: (line: string) => void
}

export type Benchmark = (ctx: BenchContext) => Promise<BenchResult>

export function atLeast(
  metric: string,
  value: number,
  unit: string,
  min: number,
  note?: string,
): BenchRow {
  return { metric, value, unit, target: `>= ${min}`, pass: value >= min, ...(note ? { note } : {}) }
}

export function atMost(
  metric: string,
  value: number,
  unit: string,
  max: number,
  note?: string,
): BenchRow {
  return { metric, value, unit, target: `<= ${max}`, pass: value <= max, ...(note ? { note } : {}) }
}

export function report(metric: string, value: number, unit: string, note?: string): BenchRow {
  return { metric, value, unit, target: null, pass: null, ...(note ? { note } : {}) }
}

/** Nearest-rank percentile of an unsorted sample; NaN for an empty one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = Float64Array.from(values).sort()
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] ?? Number.NaN
}

export function median(values: readonly number[]): number {
  return percentile(values, 50)
}

export function round(value: number, digits = 1): number {
  if (!Number.isFinite(value)) return value
  const f = 10 ** digits
  return Math.round(value * f) / f
}

export function skipped(name: string, why: string): BenchResult {
  return { name, rows: [], json: {}, skipped: why }
}

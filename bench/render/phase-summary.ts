import type { PageSample } from './page-recorder'

/** One metered phase of a render run, on one side. */
export interface Phase {
  sample: PageSample
  seconds: number
  hostCpuPct: number
  browserCpuPct: number
  hostPssMB: number
}

/** One phase of a render run as one log line (and its trace breakdown when traced). */
export function summary(p: Phase): string {
  const lat = [...p.sample.latencies].sort((a, b) => a - b)
  const q = quantile(lat)
  const m = p.sample.mainThread
  const arr = p.sample.arrivals ? [...p.sample.arrivals].sort((a, b) => a - b) : null
  const a = arr ? quantile(arr) : null
  return (
    `p50/p95 ${q(0.5)}/${q(0.95)} ms (${Math.round(lat.length / p.seconds)} writes/s in ` +
    `${Math.round(p.sample.frames / p.seconds)} frames/s), ` +
    (a ? `arrival in the page p50/p95 ${a(0.5)}/${a(0.95)} ms, ` : '') +
    `long tasks ${p.sample.longTasks.length}, cpu host ${p.hostCpuPct.toFixed(1)}% + browser ` +
    `${p.browserCpuPct.toFixed(1)}%, pss ${p.hostPssMB.toFixed(1)} MB; main thread ms/s: ` +
    `script ${m.script.toFixed(0)} style ${m.style.toFixed(0)} layout ${m.layout.toFixed(0)} ` +
    `other ${m.other.toFixed(0)} (task ${m.task.toFixed(0)})` +
    (p.sample.trace
      ? `\n    trace ms/s: ${Object.entries(p.sample.trace.kinds)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(', ')}\n    top: ${p.sample.trace.top}\n    long: ${p.sample.trace.longTasks}`
      : '')
  )
}

/** The value at fraction f of a sorted list. */
function quantile(sorted: readonly number[]): (f: number) => number {
  return (f) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))] ?? NaN
}

import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'

/**
 * Waits for a quiet machine before a measurement that is kept: the 1-minute load average below
 * `maxLoad`, polled every `pollMs` (other engineers' builds and tests come and go on a shared
 * machine). A machine of its own (CI) that just ran other steps asks busyCores() instead: the
 * load average lags a minute and more behind work that has ended. Returns the load seen when it went ahead. `maxWaitMs` bounds the wait; past it the
 * run goes ahead and says so (its figures are then marked with the load they ran beside).
 */
export interface QuietOptions {
  maxLoad: number
  pollMs: number
  maxWaitMs: number
  log: (line: string) => void
  /** What is compared with maxLoad (default: the 1-minute load average); injected for tests. */
  load?: () => number | Promise<number>
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

export async function waitForQuiet(
  opts: QuietOptions,
): Promise<{ load: number; waitedMs: number; quiet: boolean }> {
  const load = opts.load ?? ((): number => loadavg()[0] ?? 0)
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const now = opts.now ?? Date.now
  const start = now()
  for (;;) {
    const l = await load()
    const waitedMs = now() - start
    if (l < opts.maxLoad) return { load: l, waitedMs, quiet: true }
    if (waitedMs >= opts.maxWaitMs) {
      opts.log(`load ${l.toFixed(2)} after ${Math.round(waitedMs / 1000)} s: going ahead anyway`)
      return { load: l, waitedMs, quiet: false }
    }
    opts.log(`load ${l.toFixed(2)} >= ${opts.maxLoad}: waiting ${opts.pollMs / 1000} s`)
    await sleep(opts.pollMs)
  }
}

/** Cores' worth of CPU time the whole machine spent busy over the last `ms` (/proc/stat). */
export async function busyCores(ms = 5000): Promise<number> {
  const read = (): { busy: number; total: number; cores: number } => {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n')
    const f = (lines[0] ?? '').trim().split(/\s+/).slice(1).map(Number)
    const idle = (f[3] ?? 0) + (f[4] ?? 0)
    const total = f.reduce((a, b) => a + b, 0)
    const cores = lines.filter((l) => /^cpu\d/.test(l)).length
    return { busy: total - idle, total, cores }
  }
  const a = read()
  await new Promise((r) => setTimeout(r, ms))
  const b = read()
  const total = b.total - a.total
  return total > 0 ? ((b.busy - a.busy) / total) * b.cores : 0
}

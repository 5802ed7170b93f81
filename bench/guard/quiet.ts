import { loadavg } from 'node:os'

/**
 * Waits for a quiet machine before a measurement that is kept: the 1-minute load average below
 * `maxLoad`, polled every `pollMs` (other engineers' builds and tests come and go on a shared
 * machine). Returns the load seen when it went ahead. `maxWaitMs` bounds the wait; past it the
 * run goes ahead and says so (its figures are then marked with the load they ran beside).
 */
export interface QuietOptions {
  maxLoad: number
  pollMs: number
  maxWaitMs: number
  log: (line: string) => void
  /** Injected for tests. */
  load?: () => number
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
    const l = load()
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

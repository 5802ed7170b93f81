import type { BatchTiming } from '../feed/quote-batcher'

/**
 * A hand-stepped event loop for the quote batcher and what drives it (quote-batcher, feed-events
 * and frame-beat specs): `schedule` is the turn's end, `after` a timer, and the test moves time.
 */
export interface SteppedTiming {
  readonly timing: BatchTiming
  /** Callbacks and timers waiting. */
  due(): number
  /** Ends the turn: runs what was scheduled before this call, once. */
  runSoon(): void
  /** Moves the clock `ms` at once and runs the timers due by then (not what they schedule). */
  advance(ms: number): void
  /**
   * Moves the clock one ms at a time for `ms`: each ms its due timers, then what they
   * schedule, until nothing is left for that ms.
   */
  run(ms: number): void
}

/**
 * `wholeMs`: timers round their delay up to a whole ms, as Node's do (a 1.5 ms wait is 2 ms):
 * for specs where the batches' timing to a fraction of a frame is the point.
 */
export function steppedTiming(opts: { start?: number; wholeMs?: boolean } = {}): SteppedTiming {
  let now = opts.start ?? 0
  let soon: Array<() => void> = []
  let timers: Array<{ at: number; run: () => void }> = []
  const drop = (run: () => void) => (): void => {
    soon = soon.filter((r) => r !== run)
    timers = timers.filter((t) => t.run !== run)
  }
  const runTimers = (): void => {
    const ready = timers.filter((t) => t.at <= now)
    timers = timers.filter((t) => t.at > now)
    for (const t of ready) t.run()
  }
  const runSoon = (): void => {
    const ready = soon
    soon = []
    for (const run of ready) run()
  }
  return {
    timing: {
      schedule: (run) => {
        soon.push(run)
        return drop(run)
      },
      after: (ms, run) => {
        timers.push({ at: now + (opts.wholeMs === true ? Math.ceil(ms) : ms), run })
        return drop(run)
      },
      now: () => now,
    },
    due: () => soon.length + timers.length,
    runSoon,
    advance: (ms) => {
      now += ms
      runTimers()
    },
    run: (ms) => {
      for (let i = 0; i < ms; i++) {
        now += 1
        runTimers()
        while (soon.length > 0) runSoon()
      }
    },
  }
}

import type { QuoteFrame } from '../../shared/quote-frame'

/**
 * Turns a stream of store changes into bridge batches, changed fields only, sent as soon as the
 * event loop is free: every tick that arrived in one turn of the loop (one socket read carries
 * many) goes out together, right after that turn, so the bridge adds no timer wait; the renderer
 * coalesces further and applies once per animation frame (architecture: The path of a tick).
 * Nothing is scheduled while nothing changes, so an idle app costs nothing.
 *
 *   idle --request()--> due --(loop turn ends, and MIN_GAP_MS since the last batch) flush--> idle
 */
export type Schedule = (run: () => void) => () => void

/** After the current turn of the Node event loop, I/O callbacks included (setImmediate). */
export const whenLoopIsFree: Schedule = (run) => {
  const handle = setImmediate(run)
  return () => clearImmediate(handle)
}

/**
 * Batches closer together than this wait for the rest of it. A busy feed wakes the loop every
 * millisecond or so; a batch per wake-up made the page handle ~1000 messages a second for the
 * same prices. Each batch costs the host one JSON encode and one socket write: at a quarter
 * frame (250/s) that was a fifth of the host's CPU at 10k ticks/s (render bench, perf), while
 * the page applies at most one per animation frame. Half a frame bounds it at 125/s and still
 * adds well under one frame.
 */
export const MIN_GAP_MS = 8

export interface BatchTiming {
  /** When the loop is free (default whenLoopIsFree). */
  schedule: Schedule
  /** After ms (default setTimeout), for the rest of MIN_GAP_MS. */
  after: (ms: number, run: () => void) => () => void
  now: () => number
}

export const realTiming: BatchTiming = {
  schedule: whenLoopIsFree,
  after: (ms, run) => {
    // setTimeout truncates fractions; rounding up keeps the gap whole.
    const handle = setTimeout(run, Math.ceil(ms))
    return () => clearTimeout(handle)
  },
  now: () => performance.now(),
}

export class QuoteBatcher {
  private cancel: (() => void) | null = null
  private lastFlush = Number.NEGATIVE_INFINITY

  constructor(
    private readonly timing: BatchTiming,
    private readonly drain: () => QuoteFrame,
    private readonly emit: (frame: QuoteFrame) => void,
  ) {}

  /** Something changed in the store: make sure a flush is due once this turn of the loop ends. */
  request(): void {
    if (this.cancel !== null) return
    const wait = this.lastFlush + MIN_GAP_MS - this.timing.now()
    this.cancel =
      wait > 0
        ? this.timing.after(wait, () => this.flush())
        : this.timing.schedule(() => this.flush())
  }

  flush(): void {
    this.cancel?.()
    this.cancel = null
    const frame = this.drain()
    if (frame.keys.length === 0) return
    this.lastFlush = this.timing.now()
    this.emit(frame)
  }

  stop(): void {
    this.cancel?.()
    this.cancel = null
  }
}

import type { QuoteFrame } from '../../shared/quote-frame'
import type { BatchPlan, FrameBeat } from './frame-beat'

/**
 * Turns a stream of store changes into bridge batches, changed fields only, sent as soon as the
 * event loop is free: every tick that arrived in one turn of the loop (one socket read carries
 * many) goes out together, right after that turn, so the bridge adds no timer wait; the renderer
 * coalesces further and applies once per animation frame (architecture: The path of a tick).
 * Nothing is scheduled while nothing changes, so an idle app costs nothing. While the page
 * reports the beat of its frames (frame-beat.ts), batches instead leave just before its frames:
 * a frame's main batch, then one late batch with what was read after it.
 *
 *   idle --request()--> due --(loop turn ends, and just before the page's next frame, or
 *                              MIN_GAP_MS since the last batch) flush--> idle
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

/** Holds the stream's socket unread while a batch waits; returns the release, or null for none. */
export type HoldReads = () => (() => void) | null

export class QuoteBatcher {
  private cancel: (() => void) | null = null
  private lastFlush = Number.NEGATIVE_INFINITY
  /** What the next batch is for (frame-beat.ts); the frame the last one was for, and whether late. */
  private plan: BatchPlan | null = null
  private served = Number.NEGATIVE_INFINITY
  private lateSent = false

  constructor(
    private readonly timing: BatchTiming,
    private readonly drain: () => QuoteFrame,
    private readonly emit: (frame: QuoteFrame) => void,
    private readonly beat: FrameBeat | null = null,
    private readonly holdReads: HoldReads = () => null,
  ) {}

  /** Something changed in the store: make sure a flush is due once this turn of the loop ends. */
  request(): void {
    if (this.cancel !== null) return
    const wait = this.untilNext()
    if (wait <= 0) this.cancel = this.timing.schedule(() => this.flush())
    else this.cancel = this.heldUntil(wait) ?? this.timing.after(wait, () => this.flush())
  }

  /**
   * Leaves the socket unread while the next batch must wait, if holdReads holds it: nothing read
   * meanwhile could reach the screen sooner. When the wait ends it is read in one go, and the
   * batch goes in that same turn of the loop, with what it brought. Returns the cancel.
   */
  private heldUntil(wait: number): (() => void) | null {
    const release = this.holdReads()
    if (release === null) return null
    let held = true
    let cancelNext = this.timing.after(wait, () => {
      held = false
      release()
      cancelNext = this.timing.schedule(() => this.flush())
    })
    return () => {
      cancelNext()
      if (held) release()
      held = false
    }
  }

  /**
   * How long the next batch waits: until it should leave for the page's next frame (or its
   * late batch for the frame just served), or the gap's rest.
   */
  private untilNext(): number {
    const now = this.timing.now()
    this.plan = this.beat?.plan(now, this.served, this.lateSent) ?? null
    // Whole ms, rounded down: a timer fires up to a ms late; the plan's lead allows for it.
    if (this.plan !== null) return Math.max(0, Math.floor(this.plan.sendAt - now))
    return Math.max(0, this.lastFlush + MIN_GAP_MS - now)
  }

  flush(): void {
    this.cancel?.()
    this.cancel = null
    const frame = this.drain()
    if (frame.keys.length === 0) return
    this.lastFlush = this.timing.now()
    if (this.plan !== null) {
      this.served = this.plan.frame
      this.lateSent = this.plan.late
    }
    this.plan = null
    this.emit(frame)
    // Held from now, not from the next read: a busy feed's next read would only wait.
    const wait = this.untilNext()
    if (wait > 0 && this.cancel === null) this.cancel = this.heldUntil(wait)
  }

  stop(): void {
    this.cancel?.()
    this.cancel = null
  }
}

import type { Clock, TimerHandle } from '../clock'

/**
 * Saves a value that changes many times a second (the quotes cache; the alert history while
 * alerts fire) at most once per interval, plus a final flush() on shutdown; the app's
 * SaveScheduler (src/app/save-scheduler.ts) runs both through it. The snapshot is taken when the
 * save runs, not when it is requested, so the file always gets the newest values.
 *
 * States: idle --request--> scheduled --timer--> saving --done--> idle
 *         scheduled|idle --flush--> saving (at once, if anything was requested)
 *         scheduled --cancel--> idle
 */
export class ThrottledSave<T> {
  private readonly intervalMs: number
  private pending: (() => T) | null = null
  private timer: TimerHandle | null = null
  private lastSaveAt = -Infinity
  private inflight: Promise<void> = Promise.resolve()

  constructor(
    private readonly opts: {
      save: (value: T) => Promise<void>
      clock: Clock
      intervalMs?: number
      /**
       * The value on disk is current at construction (just read): the first save, too, waits
       * until an interval has passed. Default false: the first request saves at once.
       */
      freshAtStart?: boolean
      onError?: (e: unknown) => void
    },
  ) {
    this.intervalMs = opts.intervalMs ?? 5000
    if (opts.freshAtStart) this.lastSaveAt = opts.clock.now()
  }

  request(snapshot: () => T): void {
    this.pending = snapshot
    if (this.timer !== null) return
    const delay = Math.max(0, this.lastSaveAt + this.intervalMs - this.opts.clock.now())
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = null
      this.run()
    }, delay)
  }

  /** Drops a waiting request (its writer may no longer write); a save under way runs on. */
  cancel(): void {
    this.opts.clock.clearTimeout(this.timer)
    this.timer = null
    this.pending = null
  }

  /** Saves now if a request is waiting, and resolves when every save has finished. */
  async flush(): Promise<void> {
    this.opts.clock.clearTimeout(this.timer)
    this.timer = null
    this.run()
    await this.inflight
  }

  private run(): void {
    const snapshot = this.pending
    if (snapshot === null) return
    this.pending = null
    this.lastSaveAt = this.opts.clock.now()
    const previous = this.inflight
    this.inflight = previous
      .then(() => this.opts.save(snapshot()))
      .catch((e: unknown) => this.opts.onError?.(e))
  }
}

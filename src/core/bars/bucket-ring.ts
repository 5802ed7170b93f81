/** Buckets a window is cut into: its resolution (1/120 of the window, at least one second). */
export const WINDOW_BUCKETS = 120

/**
 * A time window as a fixed ring of buckets, oldest first: bounded memory however fast values
 * arrive. The alert windows ('movePct' min/max, 'volume' sums: alert-conditions.ts) keep their
 * figures in arrays of `capacity` slots beside it, indexed by the slots this ring hands out. A
 * bucket straddling the window's start still counts, so a window is exact to within one bucket.
 * Allocation-free: it runs on every tick of every symbol with such a rule.
 */
export class BucketRing {
  readonly capacity = WINDOW_BUCKETS + 2
  private readonly width: number
  private readonly start = new Float64Array(this.capacity)
  private head = 0
  /** Live buckets, oldest first: slot(0) .. slot(size - 1). */
  size = 0

  constructor(private readonly windowMs: number) {
    this.width = Math.max(1000, windowMs / WINDOW_BUCKETS)
  }

  /** The slot of the i-th live bucket, 0 the oldest. */
  slot(i: number): number {
    return (this.head + i) % this.capacity
  }

  /**
   * The newest bucket's slot when `ts` falls in it, else the slot of a new bucket opened at `ts`
   * (the oldest dropped when the ring is full) as `~slot`, so the caller knows to fill it afresh.
   */
  place(ts: number): number {
    if (this.size > 0) {
      const last = this.slot(this.size - 1)
      if (ts < (this.start[last] as number) + this.width) return last
    }
    if (this.size === this.capacity) {
      this.head = (this.head + 1) % this.capacity
      this.size--
    }
    const j = this.slot(this.size)
    this.start[j] = ts
    this.size++
    return ~j
  }

  /** Drops the buckets that ended before the window ending `now` began. */
  prune(now: number): void {
    while (this.size > 0 && (this.start[this.head] as number) + this.width <= now - this.windowMs) {
      this.head = (this.head + 1) % this.capacity
      this.size--
    }
  }

  clear(): void {
    this.size = 0
  }
}

import type { Clock, TimerHandle } from '../core/clock'
import type { QuotePatch } from '../shared/quote'

export const FRAME_MS = 16

/**
 * Turns a stream of store changes into at most one bridge batch per animation frame (~16 ms),
 * changed fields only. Nothing is scheduled while nothing changes, so an idle app costs nothing.
 */
export class QuoteBatcher {
  private timer: TimerHandle | null = null
  private batches = 0

  constructor(
    private readonly clock: Clock,
    private readonly drain: () => QuotePatch[],
    private readonly emit: (patches: QuotePatch[]) => void,
  ) {}

  /** Something changed in the store: make sure a flush is due within one frame. */
  request(): void {
    if (this.timer !== null) return
    this.timer = this.clock.setTimeout(() => this.flush(), FRAME_MS)
  }

  flush(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
    const patches = this.drain()
    if (patches.length === 0) return
    this.batches++
    this.emit(patches)
  }

  batchCount(): number {
    return this.batches
  }

  stop(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
  }
}

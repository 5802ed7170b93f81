import type { QuotePatch } from '../shared/quote'

/**
 * Turns a stream of store changes into bridge batches, changed fields only, sent as soon as the
 * event loop is free: every tick that arrived in one turn of the loop (one socket read carries
 * many) goes out together, right after that turn, so the bridge adds no timer wait; the renderer
 * coalesces further and applies once per animation frame (ARCHITECTURE: at most one frame).
 * Nothing is scheduled while nothing changes, so an idle app costs nothing.
 *
 *   idle --request()--> due --(loop turn ends: schedule fires) flush--> idle
 */
export type Schedule = (run: () => void) => () => void

/** After the current turn of the Node event loop, I/O callbacks included (setImmediate). */
export const whenLoopIsFree: Schedule = (run) => {
  const handle = setImmediate(run)
  return () => clearImmediate(handle)
}

export class QuoteBatcher {
  private cancel: (() => void) | null = null
  private batches = 0

  constructor(
    private readonly schedule: Schedule,
    private readonly drain: () => QuotePatch[],
    private readonly emit: (patches: QuotePatch[]) => void,
  ) {}

  /** Something changed in the store: make sure a flush is due once this turn of the loop ends. */
  request(): void {
    if (this.cancel !== null) return
    this.cancel = this.schedule(() => this.flush())
  }

  flush(): void {
    this.cancel?.()
    this.cancel = null
    const patches = this.drain()
    if (patches.length === 0) return
    this.batches++
    this.emit(patches)
  }

  batchCount(): number {
    return this.batches
  }

  stop(): void {
    this.cancel?.()
    this.cancel = null
  }
}

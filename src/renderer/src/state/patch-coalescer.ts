import type { QuotePatch } from '../../../shared/quote'
import { LatestQuotes } from '../../../shared/latest-quotes'
import type { QuoteFrame } from '../../../shared/quote-frame'

/**
 * Coalesces bridge quote frames into at most one update per row per animation frame. Frames
 * arrive whenever the host's event loop was free (many a frame under load), out of step with the
 * screen: applying each as it lands would make DOM work grow with the tick rate, applying once
 * per frame makes it grow with the row count only (at most one update per row a frame).
 *
 * Latest value wins per field (shared/latest-quotes.ts, the quote path's one coalescer): a row
 * that ticked five times since the last frame is applied once with the newest value of every
 * field any of those ticks carried.
 */
export type RequestFrame = (run: () => void) => unknown

export class PatchCoalescer {
  private readonly latest = new LatestQuotes()
  private scheduled = false

  constructor(
    private readonly requestFrame: RequestFrame,
    /** Runs once per frame with one merged patch per changed row (read it, do not keep it). */
    private readonly onFrame: (rows: readonly QuotePatch[]) => void,
  ) {}

  /** Rows waiting for the next frame. */
  get pendingRows(): number {
    return this.latest.size
  }

  push(frame: QuoteFrame): void {
    this.latest.push(frame)
    if (!this.scheduled && this.latest.size > 0) {
      this.scheduled = true
      this.requestFrame(() => this.flush())
    }
  }

  /** Applies everything pending now (the frame callback). */
  flush(): void {
    this.scheduled = false
    if (this.latest.size === 0) return
    try {
      this.onFrame(this.latest.pending())
    } finally {
      this.latest.clear()
    }
  }

  /** Drops what is pending (a fresh snapshot replaces it). */
  clear(): void {
    this.latest.clear()
  }
}

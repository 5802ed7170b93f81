import type { QuotePatch } from '../../../shared/quote'

/**
 * Coalesces bridge quote batches into at most one update per row per animation frame. The host
 * sends a batch every ~16 ms (ARCHITECTURE: QuoteBatcher), but batches and frames are not in step
 * and a busy page falls behind: applying each batch as it lands makes the DOM work grow with the
 * tick rate, applying once per frame makes it grow with the row count only (200 rows, at most 200
 * row updates a frame, whatever the tick rate).
 *
 * Latest value wins per field: a row that ticked five times since the last frame is applied once
 * with the newest value of every field any of those ticks carried. Each row keeps one reusable
 * slot for its pending fields, so a tick costs a few property writes, not an allocation.
 */
export type RequestFrame = (run: () => void) => unknown

type Fields = { -readonly [K in keyof QuotePatch]: QuotePatch[K] }
interface Slot {
  fields: Fields
  pending: boolean
}

export class PatchCoalescer {
  /** One slot per key ever seen (bounded by the symbols the page has shown). */
  private readonly slots = new Map<string, Slot>()
  private readonly dirty: Slot[] = []
  private readonly rows: QuotePatch[] = []
  private readonly received: QuotePatch[] = []
  private scheduled = false

  constructor(
    private readonly requestFrame: RequestFrame,
    /** Runs once per frame with one merged patch per changed row and every patch received. */
    private readonly onFrame: (
      rows: readonly QuotePatch[],
      received: readonly QuotePatch[],
    ) => void,
  ) {}

  /** Rows waiting for the next frame. */
  get pendingRows(): number {
    return this.dirty.length
  }

  push(patches: readonly QuotePatch[]): void {
    for (const p of patches) {
      let slot = this.slots.get(p.key)
      if (slot === undefined) {
        slot = { fields: { key: p.key }, pending: false }
        this.slots.set(p.key, slot)
      }
      const fields = slot.fields as Record<string, unknown>
      for (const field in p) {
        const value = (p as Record<string, unknown>)[field]
        if (value !== undefined) fields[field] = value
      }
      if (!slot.pending) {
        slot.pending = true
        this.dirty.push(slot)
        this.rows.push(slot.fields)
      }
      this.received.push(p)
    }
    if (!this.scheduled && this.dirty.length > 0) {
      this.scheduled = true
      this.requestFrame(() => this.flush())
    }
  }

  /** Applies everything pending now (the frame callback; also for a snapshot that must win). */
  flush(): void {
    this.scheduled = false
    if (this.dirty.length === 0 && this.received.length === 0) return
    try {
      this.onFrame(this.rows, this.received)
    } finally {
      this.clear()
    }
  }

  /** Drops what is pending (a fresh snapshot replaces it). */
  clear(): void {
    // Emptied in place: the slots' shapes and the arrays' storage are reused next frame.
    for (const slot of this.dirty) {
      slot.pending = false
      const fields = slot.fields as Record<string, unknown>
      for (const field in fields) if (field !== 'key') fields[field] = undefined
    }
    this.dirty.length = 0
    this.rows.length = 0
    this.received.length = 0
  }
}

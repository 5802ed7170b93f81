import type { QuotePatch } from '../../../shared/quote'
import {
  FRAME_FIELDS,
  frameValue,
  type FrameField,
  type QuoteFrame,
} from '../../../shared/quote-frame'

/**
 * Coalesces bridge quote frames into at most one update per row per animation frame. Frames
 * arrive whenever the host's event loop was free (many a frame under load), out of step with the
 * screen: applying each as it lands would make DOM work grow with the tick rate, applying once
 * per frame makes it grow with the row count only (at most one update per row a frame).
 *
 * Latest value wins per field: a row that ticked five times since the last frame is applied once
 * with the newest value of every field any of those ticks carried. Frames are read in place
 * (quote-frame.ts) and each row keeps one reusable slot, so a tick costs a few property writes,
 * not an allocation.
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
  private scheduled = false

  constructor(
    private readonly requestFrame: RequestFrame,
    /** Runs once per frame with one merged patch per changed row. */
    private readonly onFrame: (rows: readonly QuotePatch[]) => void,
  ) {}

  /** Rows waiting for the next frame. */
  get pendingRows(): number {
    return this.dirty.length
  }

  push(frame: QuoteFrame): void {
    const { keys, masks, values } = frame
    const base = frame.base ?? 0
    let at = 0
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string
      const slot = this.slot(key)
      const fields = slot.fields as Record<string, unknown>
      const mask = masks[i] as number
      for (let f = 0; f < FRAME_FIELDS.length; f++) {
        const bit = 1 << f
        if (bit > mask) break
        if ((mask & bit) === 0) continue
        fields[FRAME_FIELDS[f] as FrameField] = frameValue(bit, values[at++] ?? null, base)
      }
      if (!slot.pending) {
        slot.pending = true
        this.dirty.push(slot)
        this.rows.push(slot.fields)
      }
    }
    if (!this.scheduled && this.dirty.length > 0) {
      this.scheduled = true
      this.requestFrame(() => this.flush())
    }
  }

  /** Applies everything pending now (the frame callback). */
  flush(): void {
    this.scheduled = false
    if (this.dirty.length === 0) return
    try {
      this.onFrame(this.rows)
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
  }

  private slot(key: string): Slot {
    let slot = this.slots.get(key)
    if (slot === undefined) {
      slot = { fields: { key }, pending: false }
      this.slots.set(key, slot)
    }
    return slot
  }
}

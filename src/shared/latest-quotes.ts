import type { QuotePatch } from './quote'
import {
  encodeQuoteFrame,
  FRAME_FIELDS,
  frameValue,
  type FrameField,
  type QuoteFrame,
} from './quote-frame'

/**
 * The latest value of every field per symbol, merged from quote frames until taken: the one
 * coalescer of the quote path's readers. The renderer applies what one animation frame gathered
 * (state/patch-coalescer.ts); the browser bridge holds what a page that fell behind has not been
 * sent yet (web/bridge-socket.ts). Both want the same thing: a row that ticked five times since
 * it was last taken is taken once, with the newest value of every field any of those ticks
 * carried, an explicit null (a field the service cleared) included.
 *
 *   empty --push(frame)--> pending (rows in first-seen order) --take/clear--> empty
 *
 * Frames are read in place (quote-frame.ts) and each symbol keeps one reusable patch, so a tick
 * costs a few property writes, not an allocation: the patches `pending` returns are this
 * object's own, valid until the next clear or take.
 */
type Fields = { -readonly [K in keyof QuotePatch]: QuotePatch[K] }
interface Slot {
  fields: Fields
  pending: boolean
}

export class LatestQuotes {
  /** One slot per key ever seen (bounded by the symbols the reader has been sent). */
  private readonly slots = new Map<string, Slot>()
  private readonly dirty: Slot[] = []
  private readonly rows: QuotePatch[] = []

  /** Symbols waiting to be taken. */
  get size(): number {
    return this.dirty.length
  }

  /** Merges a frame in: per symbol, each field it carries replaces the one held. */
  push(frame: QuoteFrame): void {
    const { keys, masks, values } = frame
    const base = frame.base ?? 0
    let at = 0
    for (let i = 0; i < keys.length; i++) {
      const slot = this.slot(keys[i] as string)
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
  }

  /** One merged patch per waiting symbol, in the order they first arrived; cleared by clear(). */
  pending(): readonly QuotePatch[] {
    return this.rows
  }

  /** What is waiting as one frame of its own (nothing here is reused by it), then empty. */
  takeFrame(): QuoteFrame {
    const frame = encodeQuoteFrame(this.rows)
    this.clear()
    return frame
  }

  /** Drops what is waiting; the slots and arrays are kept for the next frames. */
  clear(): void {
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

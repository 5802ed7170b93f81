/**
 * A frame's bytes held against known ASCII text: one text at a time (bytesAt), or the keys'
 * heads, each in a few 32-bit words (KeyHeads). The push scanner's comparisons (push-scan.ts).
 */

/** A frame's UTF-8 bytes: the socket's own buffer, so no string is decoded for a scanned frame. */
export type Bytes = Uint8Array

/** Whether `raw` holds the ASCII text `s` at `at` (startsWith, on bytes). */
export function bytesAt(raw: Bytes, at: number, s: string): boolean {
  const n = s.length
  if (at + n > raw.length) return false
  for (let i = 0; i < n; i++) if ((raw[at + i] as number) !== s.charCodeAt(i)) return false
  return true
}

/**
 * The keys' `"name":` heads as little-endian 32-bit words, so the key where the previous item had
 * it is checked in two or three loads (DataView.getInt32) instead of one per byte: byte by byte
 * it was the scan's largest part (perf, bench/ingest). A head is at least 4 bytes (`"a":`), so
 * its words may overlap: at 0, 4, 8, … while a whole word is left past them, then the one ending
 * at its last byte.
 */
export class KeyHeads {
  private readonly lengths: Int32Array
  /** Key k's words are words[starts[k]] to the one before words[starts[k + 1]]. */
  private readonly starts: Int32Array
  private readonly words: Int32Array

  constructor(heads: readonly string[]) {
    this.lengths = new Int32Array(heads.length)
    this.starts = new Int32Array(heads.length + 1)
    const words: number[] = []
    for (const [k, head] of heads.entries()) {
      const view = new DataView(new TextEncoder().encode(head).buffer)
      this.lengths[k] = head.length
      this.starts[k] = words.length
      for (let o = 0; o < head.length - 4; o += 4) words.push(view.getInt32(o, true))
      words.push(view.getInt32(head.length - 4, true))
    }
    this.starts[heads.length] = words.length
    this.words = Int32Array.from(words)
  }

  /** Head k's length when it is at `at` of the frame (`view` over it, `end` long), else 0. */
  at(view: DataView, end: number, at: number, k: number): number {
    const len = this.lengths[k] as number
    if (at + len > end) return 0
    const words = this.words
    let w = this.starts[k] as number
    for (let o = 0; o < len - 4; o += 4)
      if (view.getInt32(at + o, true) !== (words[w++] as number)) return 0
    return view.getInt32(at + len - 4, true) === (words[w] as number) ? len : 0
  }
}

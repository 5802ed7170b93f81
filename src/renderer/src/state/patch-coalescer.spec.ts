import { describe, expect, it } from 'vitest'
import type { QuotePatch } from '../../../shared/quote'
import { encodeQuoteFrame, FRAME_FIELDS } from '../../../shared/quote-frame'
import { PatchCoalescer } from './patch-coalescer'

/** The coalescer fed patches as the host encodes them (quote-frame.ts). */
class Coalescer extends PatchCoalescer {
  override push(patches: QuotePatch[] | Parameters<PatchCoalescer['push']>[0]): void {
    super.push(Array.isArray(patches) ? encodeQuoteFrame(patches) : patches)
  }
}

/** A frame source stepped by hand, standing in for requestAnimationFrame. */
function setup(): {
  coalescer: Coalescer
  frames: Array<() => void>
  applied: Array<{ rows: QuotePatch[] }>
  runFrame: () => void
} {
  const frames: Array<() => void> = []
  const applied: Array<{ rows: QuotePatch[] }> = []
  const coalescer = new Coalescer(
    (run) => frames.push(run),
    // Copied: the coalescer reuses its arrays and slots after the frame.
    (rows) => applied.push({ rows: rows.map((r) => ({ ...r })) }),
  )
  const runFrame = (): void => {
    for (const run of frames.splice(0)) run()
  }
  return { coalescer, frames, applied, runFrame }
}

/** Drops fields left undefined by a reused slot, for readable comparisons. */
function defined(p: QuotePatch): Record<string, unknown> {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined))
}

describe('PatchCoalescer', () => {
  it('applies nothing until the frame, then each row once with the latest value of every field', () => {
    const { coalescer, applied, runFrame } = setup()
    coalescer.push([
      { key: 'a', last: 1, bid: 0.9 },
      { key: 'b', last: 10 },
    ])
    coalescer.push([{ key: 'a', last: 2 }])
    coalescer.push([{ key: 'a', ask: 2.1, last: 3 }])
    expect(applied).toHaveLength(0)
    runFrame()
    expect(applied).toHaveLength(1)
    expect(applied[0]?.rows.map(defined)).toEqual([
      { key: 'a', last: 3, bid: 0.9, ask: 2.1 },
      { key: 'b', last: 10 },
    ])
  })

  it('reads every field of a frame, coded ones (source, stale) included', () => {
    const { coalescer, applied, runFrame } = setup()
    coalescer.push([{ key: 'a', last: 1, ts: 100, receivedAt: 101, source: 'poll', stale: true }])
    coalescer.push([{ key: 'a', source: 'stream', stale: false, volume: 5 }])
    runFrame()
    expect(applied[0]?.rows.map(defined)).toEqual([
      { key: 'a', last: 1, ts: 100, receivedAt: 101, source: 'stream', stale: false, volume: 5 },
    ])
  })

  it('reads times as offsets from the frame base (the host sends them so)', () => {
    const { coalescer, applied, runFrame } = setup()
    const base = 1_764_140_000_000
    const ts = 1 << FRAME_FIELDS.indexOf('ts')
    const receivedAt = 1 << FRAME_FIELDS.indexOf('receivedAt')
    coalescer.push({ keys: ['a'], masks: [1 | ts | receivedAt], values: [7, -12, 3], base })
    runFrame()
    expect(applied[0]?.rows.map(defined)).toEqual([
      { key: 'a', last: 7, ts: base - 12, receivedAt: base + 3 },
    ])
  })

  it('asks for one frame however many batches arrive before it', () => {
    const { coalescer, frames } = setup()
    for (let i = 0; i < 50; i++) coalescer.push([{ key: 'a', last: i }])
    expect(frames).toHaveLength(1)
    expect(coalescer.pendingRows).toBe(1)
  })

  it('starts each frame empty: fields applied last frame are not re-applied', () => {
    const { coalescer, applied, runFrame } = setup()
    coalescer.push([{ key: 'a', last: 1, bid: 0.9 }])
    runFrame()
    coalescer.push([{ key: 'a', ask: 1.2 }])
    runFrame()
    expect(applied.map((f) => f.rows.map(defined))).toEqual([
      [{ key: 'a', last: 1, bid: 0.9 }],
      [{ key: 'a', ask: 1.2 }],
    ])
  })

  it('keeps an explicit null (a field the service cleared) as the latest value', () => {
    const { coalescer, applied, runFrame } = setup()
    coalescer.push([{ key: 'a', bid: 1 }])
    coalescer.push([{ key: 'a', bid: null }])
    runFrame()
    expect(applied[0]?.rows.map(defined)).toEqual([{ key: 'a', bid: null }])
  })

  it('drops pending patches on clear (a fresh snapshot supersedes them) and asks again later', () => {
    const { coalescer, frames, applied, runFrame } = setup()
    coalescer.push([{ key: 'a', last: 1 }])
    coalescer.clear()
    runFrame()
    expect(applied).toHaveLength(0)
    coalescer.push([{ key: 'a', last: 2 }])
    expect(frames).toHaveLength(1)
    runFrame()
    expect(applied[0]?.rows.map(defined)).toEqual([{ key: 'a', last: 2 }])
  })

  it('recovers after a frame callback throws: the next batch still gets a frame', () => {
    const frames: Array<() => void> = []
    let fail = true
    const seen: number[] = []
    const coalescer = new Coalescer(
      (run) => frames.push(run),
      (rows) => {
        if (fail) throw new Error('boom')
        seen.push(rows.length)
      },
    )
    coalescer.push([{ key: 'a', last: 1 }])
    expect(() => frames.shift()?.()).toThrow('boom')
    fail = false
    coalescer.push([{ key: 'b', last: 1 }])
    frames.shift()?.()
    expect(seen).toEqual([1])
  })
})

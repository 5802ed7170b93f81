import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { QuotePatch } from './quote'
import { LatestQuotes } from './latest-quotes'
import { decodeQuoteFrame, encodeQuoteFrame, FRAME_FIELDS, isQuoteFrame } from './quote-frame'

/** Drops fields left undefined by a reused slot, for readable comparisons. */
function defined(p: QuotePatch): Record<string, unknown> {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined))
}

const pushed = (latest: LatestQuotes, patches: QuotePatch[]): void =>
  latest.push(encodeQuoteFrame(patches))

describe('LatestQuotes (the quote path latest-value coalescer)', () => {
  it('holds each symbol once, in first-seen order, with the newest value of every field', () => {
    const latest = new LatestQuotes()
    pushed(latest, [
      { key: 'a', last: 1, bid: 0.9 },
      { key: 'b', last: 10 },
    ])
    pushed(latest, [{ key: 'a', last: 2 }])
    pushed(latest, [{ key: 'a', ask: 2.1, last: 3, source: 'poll', stale: true }])
    pushed(latest, [{ key: 'a', source: 'stream', stale: false, bid: null }])
    expect(latest.size).toBe(2)
    expect(latest.pending().map(defined)).toEqual([
      { key: 'a', last: 3, bid: null, ask: 2.1, source: 'stream', stale: false },
      { key: 'b', last: 10 },
    ])
  })

  it('reads times as offsets from the frame base', () => {
    const latest = new LatestQuotes()
    const base = 1_764_140_000_000
    const ts = 1 << FRAME_FIELDS.indexOf('ts')
    latest.push({ keys: ['a'], masks: [1 | ts], values: [7, -12], base })
    expect(latest.pending().map(defined)).toEqual([{ key: 'a', last: 7, ts: base - 12 }])
  })

  it('starts empty after a clear: fields taken before are not carried into the next take', () => {
    const latest = new LatestQuotes()
    pushed(latest, [{ key: 'a', last: 1, bid: 0.9 }])
    latest.clear()
    expect(latest.size).toBe(0)
    pushed(latest, [{ key: 'a', ask: 1.2 }])
    expect(latest.pending().map(defined)).toEqual([{ key: 'a', ask: 1.2 }])
  })

  it('takes what waits as a valid frame of its own and is empty after', () => {
    const latest = new LatestQuotes()
    pushed(latest, [{ key: 'a', last: 1, ts: 5, source: 'cache' }])
    pushed(latest, [
      { key: 'b', volume: 3 },
      { key: 'a', last: 2 },
    ])
    const frame = latest.takeFrame()
    expect(isQuoteFrame(frame)).toBe(true)
    expect(latest.size).toBe(0)
    pushed(latest, [{ key: 'a', last: 9 }])
    // The frame taken is not the coalescer's to change afterwards.
    expect(decodeQuoteFrame(frame)).toEqual([
      { key: 'a', last: 2, ts: 5, source: 'cache' },
      { key: 'b', volume: 3 },
    ])
  })

  it('leaves each symbol as applying every frame in order would (any run of frames)', () => {
    const field = fc.constantFrom('last', 'bid', 'ask', 'volume', 'ts', 'stale', 'source')
    const patch = fc.record({
      key: fc.constantFrom('a', 'b', 'c'),
      values: fc.dictionary(field, fc.nat(1000)),
    })
    const toPatch = ({ key, values }: { key: string; values: Record<string, number> }) => {
      const p: Record<string, unknown> = { key }
      for (const [f, v] of Object.entries(values))
        // A figure may be cleared (null); a time, the source and the stale flag never are.
        p[f] =
          f === 'stale'
            ? v % 2 === 0
            : f === 'source'
              ? (['stream', 'poll', 'cache'] as const)[v % 3]
              : v === 0 && f !== 'ts'
                ? null
                : v
      return p as QuotePatch
    }
    fc.assert(
      fc.property(fc.array(fc.array(patch, { maxLength: 4 }), { maxLength: 12 }), (frames) => {
        const latest = new LatestQuotes()
        const expected = new Map<string, Record<string, unknown>>()
        for (const frame of frames) {
          const patches = frame.map(toPatch)
          pushed(latest, patches)
          for (const p of patches) expected.set(p.key, { ...expected.get(p.key), ...p })
        }
        expect(decodeQuoteFrame(latest.takeFrame())).toEqual([...expected.values()])
      }),
      { numRuns: 300 },
    )
  })
})

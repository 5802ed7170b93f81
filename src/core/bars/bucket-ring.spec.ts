import { describe, expect, it } from 'vitest'
import { BucketRing, WINDOW_BUCKETS } from './bucket-ring'

const live = (ring: BucketRing): number[] =>
  Array.from({ length: ring.size }, (_, i) => ring.slot(i))

describe('BucketRing', () => {
  it('puts values of one bucket width together and opens a new bucket after it', () => {
    const ring = new BucketRing(120_000) // 1 s buckets
    const first = ring.place(0)
    expect(first).toBeLessThan(0)
    expect(ring.place(999)).toBe(~first)
    expect(ring.place(1000)).toBeLessThan(0)
    expect(ring.size).toBe(2)
  })

  it('drops the buckets that ended before the window began', () => {
    const ring = new BucketRing(60_000)
    for (let t = 0; t < 10_000; t += 1000) ring.place(t)
    ring.prune(60_000 + 3000)
    expect(ring.size).toBe(7) // buckets from 3 s on still reach into the window
  })

  it('keeps at most its capacity, dropping the oldest, however fast values come', () => {
    const ring = new BucketRing(WINDOW_BUCKETS * 1000)
    for (let t = 0; t < 10 * ring.capacity * 1000; t += 1000) ring.place(t)
    expect(ring.size).toBe(ring.capacity)
    expect(new Set(live(ring)).size).toBe(ring.capacity)
    ring.clear()
    expect(ring.size).toBe(0)
  })
})

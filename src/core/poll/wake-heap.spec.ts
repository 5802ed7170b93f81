import { describe, expect, it } from 'vitest'
import { seededRandom } from '../random'
import { WakeHeap } from './wake-heap'

describe('WakeHeap', () => {
  it('gives items back earliest first, whatever order they went in', () => {
    const rnd = seededRandom(7)
    const heap = new WakeHeap<number>()
    const times = Array.from({ length: 500 }, () => Math.floor(rnd() * 1000))
    times.forEach((t, i) => heap.push(t, i))
    expect(heap.size).toBe(500)
    const out: number[] = []
    while (heap.peekAt() !== Infinity) out.push(times[heap.pop() as number] as number)
    expect(out).toEqual([...times].sort((a, b) => a - b))
    expect(heap.pop()).toBeUndefined()
  })

  it('visits only items earlier than the limit, which may tighten as it goes', () => {
    const heap = new WakeHeap<string>()
    for (const [t, v] of [
      [5, 'e'],
      [1, 'a'],
      [9, 'i'],
      [3, 'c'],
      [7, 'g'],
    ] as const)
      heap.push(t, v)
    const seen: string[] = []
    heap.visitBefore(
      () => 6,
      (_, v) => seen.push(v),
    )
    expect(seen.sort()).toEqual(['a', 'c', 'e'])
    let limit = Infinity
    heap.visitBefore(
      () => limit,
      (at) => (limit = Math.min(limit, at + 1)),
    )
    expect(limit).toBe(2)
  })
})

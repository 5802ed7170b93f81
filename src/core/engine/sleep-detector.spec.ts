import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { watchForSleep } from './sleep-detector'

describe('watchForSleep', () => {
  it('reports a forward clock jump with its size at the next tick', () => {
    const clock = new FakeClock()
    const gaps: number[] = []
    watchForSleep(clock, (gap) => gaps.push(gap), 1_000)
    clock.advance(5_000)
    expect(gaps).toEqual([])
    clock.jump(3_600_000)
    clock.advance(1_000)
    expect(gaps).toEqual([3_599_000]) // the tick was due 1 s after the last one
    clock.advance(5_000)
    expect(gaps).toHaveLength(1)
  })

  it('ignores small lateness and backward clock changes', () => {
    const clock = new FakeClock()
    const gaps: number[] = []
    watchForSleep(clock, (gap) => gaps.push(gap), 1_000)
    clock.jump(4_500) // late by 4.5 s: below the 5 s floor
    clock.advance(1_000)
    clock.jump(-60_000)
    clock.advance(1_000)
    expect(gaps).toEqual([])
  })

  it('with the default period, sees a 7 s sleep at the first tick after it', () => {
    const clock = new FakeClock()
    const gaps: number[] = []
    watchForSleep(clock, (gap) => gaps.push(gap))
    clock.advance(1_999)
    clock.jump(7_000) // stopped just before a tick was due
    clock.advance(1)
    expect(gaps).toEqual([6_999]) // the tick was due 1 ms before the sleep began
  })

  it('stops watching and leaves no timer behind', () => {
    const clock = new FakeClock()
    const gaps: number[] = []
    const stop = watchForSleep(clock, (gap) => gaps.push(gap))
    stop()
    expect(clock.pendingTimers()).toBe(0)
    clock.jump(3_600_000)
    clock.advance(10_000)
    expect(gaps).toEqual([])
  })
})

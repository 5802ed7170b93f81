import { describe, expect, it } from 'vitest'
import { FakeClock } from './clock'
import { DEMOTION_MEMORY_MS, FeedPlanner, PRIORITY } from './feed-planner'

const keys = (n: number, market = 'crypto'): { key: string; priority: number }[] =>
  Array.from({ length: n }, (_, i) => ({ key: `${market}:S${i}`, priority: PRIORITY.other }))

const streamedKeys = (p: FeedPlanner): string[] =>
  [...p.plan().streamed].flatMap(([m, set]) => [...set].map((s) => `${m}:${s}`))

function planner(cap: number, clock = new FakeClock()): FeedPlanner {
  const p = new FeedPlanner({ cap, clock })
  p.setStreamAvailable(true)
  return p
}

describe('FeedPlanner', () => {
  it('never streams more than the plan cap and polls the rest', () => {
    const p = planner(10)
    p.setWatched(keys(30))
    expect(streamedKeys(p)).toHaveLength(10)
    expect(p.plan().polled).toHaveLength(20)
    p.setCap(3)
    expect(streamedKeys(p)).toEqual(['crypto:S0', 'crypto:S1', 'crypto:S2'])
    expect(p.plan().polled).toHaveLength(27)
  })

  it('visible symbols win stream slots over others, ties by watch order', () => {
    const p = planner(3)
    p.setWatched([
      { key: 'crypto:OTHER', priority: PRIORITY.other },
      { key: 'fx:PINNED', priority: PRIORITY.pinned },
      { key: 'hk:ALERT', priority: PRIORITY.alerted },
      { key: 'crypto:VIS1', priority: PRIORITY.visible },
      { key: 'cn:VIS2', priority: PRIORITY.visible },
    ])
    expect(streamedKeys(p).sort()).toEqual(['cn:VIS2', 'crypto:VIS1', 'hk:ALERT'])
    expect(p.plan().polled).toEqual(['fx:PINNED', 'crypto:OTHER'])
  })

  it('groups streamed symbols by market and never streams agri', () => {
    const p = planner(10)
    p.setWatched([
      { key: 'agri:ZC', priority: PRIORITY.visible },
      { key: 'crypto:BTCUSDT', priority: 0 },
      { key: 'fx:EURUSD', priority: 0 },
      { key: 'nonsense', priority: 3 },
    ])
    expect(p.plan().streamed).toEqual(
      new Map([
        ['crypto', new Set(['BTCUSDT'])],
        ['fx', new Set(['EURUSD'])],
      ]),
    )
    expect(p.plan().polled).toEqual(['agri:ZC'])
  })

  it('demotes a symbol that gets no pushes to polling and gives its slot to the next candidate', () => {
    const clock = new FakeClock()
    const p = planner(2, clock)
    let changes = 0
    p.onChange(() => changes++)
    p.setWatched(keys(3))
    changes = 0
    clock.advance(5_000)
    p.noteTick('crypto:S0')
    clock.advance(14_999)
    expect(streamedKeys(p)).toEqual(['crypto:S0', 'crypto:S1'])
    clock.advance(1)
    expect(streamedKeys(p)).toEqual(['crypto:S0', 'crypto:S2'])
    expect(p.plan().polled).toEqual(['crypto:S1'])
    expect(changes).toBe(1)
    // The replacement gets its own 20 s; a push keeps it.
    clock.advance(19_000)
    p.noteTick('crypto:S2')
    clock.advance(60_000)
    expect(streamedKeys(p)).toEqual(['crypto:S0', 'crypto:S2'])
  })

  it('remembers a demotion for 10 minutes, then tries the symbol again', () => {
    const clock = new FakeClock()
    const p = planner(1, clock)
    p.setWatched(keys(2))
    clock.advance(20_000) // S0 silent → demoted, S1 gets the slot
    p.noteTick('crypto:S1')
    expect(streamedKeys(p)).toEqual(['crypto:S1'])
    p.setCap(2)
    expect(streamedKeys(p)).toEqual(['crypto:S1'])
    clock.advance(DEMOTION_MEMORY_MS - 1)
    expect(streamedKeys(p)).toEqual(['crypto:S1'])
    clock.advance(1)
    expect(streamedKeys(p)).toEqual(['crypto:S0', 'crypto:S1'])
  })

  it('polls everything while the stream is down and demotes nobody for the outage', () => {
    const clock = new FakeClock()
    const p = planner(5, clock)
    let changes = 0
    p.onChange(() => changes++)
    p.setWatched(keys(3))
    p.setStreamAvailable(false)
    expect(streamedKeys(p)).toEqual([])
    expect(p.plan().polled).toEqual(['crypto:S0', 'crypto:S1', 'crypto:S2'])
    clock.advance(120_000)
    p.setStreamAvailable(true)
    expect(streamedKeys(p)).toHaveLength(3)
    expect(changes).toBe(3)
    clock.advance(19_999)
    expect(streamedKeys(p)).toHaveLength(3)
  })

  it('starts unavailable until the stream opens', () => {
    const p = new FeedPlanner({ cap: 5, clock: new FakeClock() })
    p.setWatched(keys(2))
    expect(streamedKeys(p)).toEqual([])
    p.setStreamAvailable(true)
    expect(streamedKeys(p)).toHaveLength(2)
  })

  it('does not report a change when the plan stays the same', () => {
    const p = planner(5)
    let changes = 0
    p.onChange(() => changes++)
    p.setWatched(keys(2))
    p.setWatched(keys(2))
    p.setCap(10)
    expect(changes).toBe(1)
  })
})

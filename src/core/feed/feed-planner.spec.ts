import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import type { Market } from '../../shared/markets/market'
import { seededRandom } from '../../util/random'
import { DEMOTION_MEMORY_MS, FeedPlanner, PRIORITY } from './feed-planner'
import { roundCalls } from './stream-choice'

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

  it('visible symbols win stream slots over others', () => {
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

  it('says when a tick settles a slot, and moves tickEpoch only when a ticked slot goes', () => {
    const clock = new FakeClock()
    const p = planner(1, clock)
    p.setWatched(keys(2))
    expect(p.noteTick('crypto:S1')).toBe(false) // polled: no slot to settle
    const epoch = p.tickEpoch
    expect(p.noteTick('crypto:S0')).toBe(true)
    expect(p.noteTick('crypto:S0')).toBe(true)
    expect(p.tickEpoch).toBe(epoch)
    // S0 is no longer watched, its slot goes to S1: a caller that cached S0 must ask again.
    p.setWatched(keys(2).slice(1))
    expect(streamedKeys(p)).toEqual(['crypto:S1'])
    expect(p.tickEpoch).not.toBe(epoch)
    expect(p.noteTick('crypto:S0')).toBe(false)
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

/** The Free mix: 32 coins (6 named like the perpetuals), 6 perpetuals, 22 multi-market. */
const PERPS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT', 'BNBUSDT']
const FREE_MIX: string[] = [
  ...PERPS.map((s) => `crypto:${s}`),
  ...Array.from({ length: 26 }, (_, i) => `crypto:C${i}USDT`),
  ...PERPS.map((s) => `usdt-futures:${s}`),
  ...Array.from({ length: 8 }, (_, i) => `fx:FX${i}`),
  ...Array.from({ length: 6 }, (_, i) => `commodity:CM${i}`),
  ...Array.from({ length: 8 }, (_, i) => `index:IX${i}`),
]

function shuffled<T>(list: readonly T[], seed: number): T[] {
  const random = seededRandom(seed)
  const out = [...list]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

const visibleAll = (list: readonly string[]) =>
  list.map((key) => ({ key, priority: PRIORITY.visible }))
const polledCalls = (p: FeedPlanner): number =>
  roundCalls(p.plan().polled.map((k) => ({ market: k.split(':')[0] as Market })))

describe('FeedPlanner: slots where they save polled calls', () => {
  it("plans the Free mix's stream set whatever the list order, with 2 polled calls a round", () => {
    const orders = [
      FREE_MIX,
      [...FREE_MIX].reverse(),
      ...[1, 2, 3, 4, 5].map((seed) => shuffled(FREE_MIX, seed)),
    ]
    const sets = orders.map((order) => {
      const p = planner(10)
      p.setWatched(visibleAll(order))
      expect(polledCalls(p)).toBeLessThanOrEqual(2)
      return streamedKeys(p).sort()
    })
    for (const set of sets) expect(set).toEqual(sets[0])
    const set = sets[0] ?? []
    expect(set).toHaveLength(10)
    // The 6 perpetuals are alone in their batch: streaming them takes a call out of every round.
    expect(set.filter((k) => k.startsWith('usdt-futures:'))).toHaveLength(6)
    // The 4 spare slots go to coins whose names the stream does not already carry as a perpetual.
    const coins = set.filter((k) => k.startsWith('crypto:'))
    expect(coins).toHaveLength(4)
    for (const k of coins) expect(PERPS).not.toContain(k.slice('crypto:'.length))
  })

  it('says why each symbol is streamed or polled', () => {
    const p = planner(10)
    p.setWatched([...visibleAll(FREE_MIX), { key: 'agri:ZC1!', priority: PRIORITY.visible }])
    const reasons = p.plan().reasons
    expect(reasons.get('usdt-futures:BTCUSDT')).toBe('saves-call')
    expect(reasons.get('crypto:BTCUSDT')).toBe('outranked')
    expect([...reasons.values()].filter((r) => r === 'spare-slot')).toHaveLength(4)
    expect(reasons.get('agri:ZC1!')).toBe('not-streamable')
    p.setStreamAvailable(false)
    expect(p.plan().reasons.get('usdt-futures:BTCUSDT')).toBe('stream-down')
  })

  it('empties the partly filled batch of a family over 50 symbols', () => {
    const p = planner(10)
    p.setWatched([...keys(55), ...keys(20, 'fx')])
    expect(polledCalls(p)).toBe(2)
    const reasons = [...p.plan().reasons.values()]
    expect(reasons.filter((r) => r === 'saves-call')).toHaveLength(5)
    expect(reasons.filter((r) => r === 'spare-slot')).toHaveLength(5)
  })

  it('never crosses priorities to save a call', () => {
    const p = planner(10)
    p.setWatched([
      ...keys(12).map((e) => ({ ...e, priority: PRIORITY.visible })),
      ...keys(6, 'usdt-futures'),
    ])
    expect(streamedKeys(p).every((k) => k.startsWith('crypto:'))).toBe(true)
    expect(p.plan().reasons.get('usdt-futures:S0')).toBe('outranked')
    expect(polledCalls(p)).toBe(2)
  })

  it('streams a class that fits whole and optimises the class where slots run out', () => {
    const p = planner(10)
    p.setWatched([
      ...keys(3, 'fx').map((e) => ({ ...e, priority: PRIORITY.alerted })),
      ...keys(30),
      ...keys(4, 'usdt-futures'),
    ])
    const reasons = p.plan().reasons
    expect(reasons.get('fx:S0')).toBe('priority')
    for (let i = 0; i < 4; i++) expect(reasons.get(`usdt-futures:S${i}`)).toBe('saves-call')
    // 7 slots left after the alerted FX: 4 empty the perpetuals' batch, 3 are spare; 27 coins poll.
    expect(polledCalls(p)).toBe(1)
  })
})

describe('FeedPlanner: hysteresis', () => {
  it('keeps the stream set round after round while the list is reordered and ticks arrive', () => {
    const clock = new FakeClock()
    const p = planner(10, clock)
    let changes = 0
    p.onChange(() => changes++)
    p.setWatched(visibleAll(FREE_MIX))
    const first = streamedKeys(p).sort()
    changes = 0
    for (let round = 0; round < 20; round++) {
      for (const k of streamedKeys(p)) p.noteTick(k)
      clock.advance(5_000)
      p.setWatched(visibleAll(shuffled(FREE_MIX, 100 + round)))
    }
    expect(streamedKeys(p).sort()).toEqual(first)
    expect(changes).toBe(0)
  })

  it('keeps a streamed symbol over a newcomer that saves nothing, moves one slot for a real gain', () => {
    const p = planner(10)
    p.setWatched(visibleAll(FREE_MIX))
    const before = new Set(streamedKeys(p))
    // A coin that would sort first is a tie: it waits, nobody moves.
    p.setWatched(visibleAll(['crypto:AAAUSDT', ...FREE_MIX]))
    expect(new Set(streamedKeys(p))).toEqual(before)
    // A 7th perpetual: streaming all 7 keeps the perpetual call out of the round, so exactly one
    // coin gives up its slot.
    p.setWatched(visibleAll(['usdt-futures:LINKUSDT', ...FREE_MIX]))
    const after = new Set(streamedKeys(p))
    expect(after.has('usdt-futures:LINKUSDT')).toBe(true)
    expect([...before].filter((k) => !after.has(k))).toHaveLength(1)
    expect(polledCalls(p)).toBe(2)
  })
})

describe('FeedPlanner: lists out of view', () => {
  it('streams background symbols last and hands the polled ones to the background pace', () => {
    const p = planner(1)
    p.setWatched([
      { key: 'usdt-futures:HIDDEN', priority: PRIORITY.background },
      { key: 'crypto:SHOWN', priority: PRIORITY.other },
      { key: 'fx:HIDDEN2', priority: PRIORITY.background },
    ])
    expect(streamedKeys(p)).toEqual(['crypto:SHOWN'])
    expect(p.plan().background).toEqual(new Set(['usdt-futures:HIDDEN', 'fx:HIDDEN2']))
  })

  it('streams a symbol two markets share, pushed untagged, in the smaller family only', () => {
    const p = planner(10)
    // Listed first and ranked alike: a rank-only rule would keep the coin and poll the perpetual.
    p.setWatched([
      { key: 'crypto:BTCUSDT', priority: PRIORITY.other },
      ...keys(5),
      { key: 'usdt-futures:BTCUSDT', priority: PRIORITY.other },
      { key: 'usdt-futures:ETHUSDT', priority: PRIORITY.other },
    ])
    expect(streamedKeys(p)).toContain('crypto:BTCUSDT')
    p.separate('BTCUSDT')
    // The perpetual keeps its slot: streamed whole, its family's batch call is saved.
    expect(streamedKeys(p)).toContain('usdt-futures:BTCUSDT')
    expect(streamedKeys(p)).not.toContain('crypto:BTCUSDT')
    expect(p.plan().reasons.get('crypto:BTCUSDT')).toBe('same-symbol')
    expect(p.plan().polled).toContain('crypto:BTCUSDT')
  })

  it('shadows a market on trial with a symbol no other market shares, else its best ranked', () => {
    const p = planner(10)
    p.setWatched([
      { key: 'crypto:BTCUSDT', priority: PRIORITY.visible },
      { key: 'crypto:ETHUSDT', priority: PRIORITY.other },
      { key: 'usdt-futures:BTCUSDT', priority: PRIORITY.other },
    ])
    p.setMarketGates(new Map([['crypto', 'probe']]))
    // BTCUSDT's pushes may be the perpetual's: ETHUSDT's can only be the coin's.
    expect(p.plan().shadow).toEqual(new Map([['crypto', new Set(['ETHUSDT'])]]))
    p.setWatched([
      { key: 'crypto:BTCUSDT', priority: PRIORITY.visible },
      { key: 'usdt-futures:BTCUSDT', priority: PRIORITY.other },
    ])
    expect(p.plan().shadow).toEqual(new Map([['crypto', new Set(['BTCUSDT'])]]))
  })
})

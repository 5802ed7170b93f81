import { describe, expect, it } from 'vitest'
import type { Market } from '../shared/market'
import { fewerPollCalls, type SlotCandidate } from './slot-swaps'

type E = SlotCandidate & { key: string }
let order = 0
const entries = (market: Market, n: number, priority = 0, streamable = true): E[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `${market}:S${i}`,
    market,
    priority,
    order: order++,
    streamable,
  }))
/** The planner's first cut: the first `cap` by priority then order. */
function firstCut(all: E[], cap: number): [E[], E[]] {
  const ranked = [...all].sort((a, b) => b.priority - a.priority || a.order - b.order)
  const streamed = ranked.filter((e) => e.streamable).slice(0, cap)
  return [streamed, ranked.filter((e) => !streamed.includes(e))]
}
const families = (list: E[]): string[] => [...new Set(list.map((e) => e.market))].sort()

describe('fewerPollCalls', () => {
  it("gives the Free plan's 10 slots to the 6 perpetuals so 50 symbols poll in 2 calls, not 3", () => {
    const all = [...entries('crypto', 32), ...entries('usdt-futures', 6), ...entries('fx', 22)]
    const { streamed, polled } = fewerPollCalls(...firstCut(all, 10))
    expect(streamed).toHaveLength(10)
    expect(streamed.filter((e) => e.market === 'usdt-futures')).toHaveLength(6)
    // The coins that keep their slots are the first in watch order.
    expect(streamed.filter((e) => e.market === 'crypto').map((e) => e.key)).toEqual([
      'crypto:S0',
      'crypto:S1',
      'crypto:S2',
      'crypto:S3',
    ])
    expect(families(polled)).toEqual(['crypto', 'fx'])
  })

  it('never gives a slot of a higher priority away, and moves nothing when no call is saved', () => {
    const visible = entries('crypto', 10, 3)
    const all = [...visible, ...entries('usdt-futures', 3), ...entries('fx', 5)]
    const cut = firstCut(all, 10)
    expect(fewerPollCalls(...cut)).toEqual({ streamed: cut[0], polled: cut[1] })
    const onlyCoins = firstCut(entries('crypto', 20), 10)
    expect(fewerPollCalls(...onlyCoins).streamed).toEqual(onlyCoins[0])
  })

  it('leaves a family polled when one of its symbols cannot stream (agri rides the multi-market quote)', () => {
    const all = [...entries('crypto', 20), ...entries('fx', 3), ...entries('agri', 1, 0, false)]
    const cut = firstCut(all, 10)
    expect(fewerPollCalls(...cut).streamed).toEqual(cut[0])
  })
})

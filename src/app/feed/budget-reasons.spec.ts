import { describe, expect, it } from 'vitest'
import { planBudget } from '../../core/feed/budget-preview'
import { PRIORITY } from '../../core/feed/feed-planner'
import { budgetReasons } from './budget-reasons'

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i))
const MIX = [
  ...range(32, (i) => `crypto:C${i}USDT`),
  ...range(6, (i) => `usdt-futures:P${i}USDT`),
  ...range(22, (i) => `fx:FX${i}`),
]
const RULES = { streamCap: 10, perMinute: 27, pacing: { share: 1, minIntervalMs: 5_000 } }

describe('budgetReasons', () => {
  it("says why the Free mix's symbols stream or are polled", () => {
    const priorities = new Map(MIX.map((k) => [k, PRIORITY.visible]))
    const plan = planBudget({
      ...RULES,
      watched: MIX.map((key) => ({ key, priority: PRIORITY.visible })),
      blockedMarkets: new Set(),
    })
    expect(budgetReasons(plan, new Set(MIX), priorities)).toEqual([
      '50 symbols polled, 2 calls a round: the 10 stream slots went to higher priorities or to batches they empty',
      '6 usdt-futures streamed: alone in their poll batch, so streaming them takes a call out of every round',
      '4 crypto streamed on spare slots (no symbol there would save a poll call)',
    ])
  })

  it("counts only the list's own symbols and names a class that fits whole", () => {
    const mine = new Set(['fx:EURUSD'])
    const watched = [
      { key: 'fx:EURUSD', priority: PRIORITY.visible },
      { key: 'crypto:BTCUSDT', priority: PRIORITY.other },
    ]
    const plan = planBudget({ ...RULES, watched, blockedMarkets: new Set() })
    expect(budgetReasons(plan, mine, new Map([['fx:EURUSD', PRIORITY.visible]]))).toEqual([
      '1 fx streamed: on screen, and the stream has room for all of them',
    ])
  })
})

describe('budgetReasons for lists out of view', () => {
  it('says how often symbols on other lists are polled', () => {
    const mine = ['crypto:C0USDT']
    const watched = [
      { key: 'crypto:C0USDT', priority: PRIORITY.visible },
      ...range(20, (i) => ({ key: `fx:FX${i}`, priority: PRIORITY.background })),
    ]
    const plan = planBudget({ ...RULES, streamCap: 0, watched, blockedMarkets: new Set() })
    const why = budgetReasons(plan, new Set(mine), new Map([['crypto:C0USDT', PRIORITY.visible]]))
    expect(why.at(-1)).toBe(
      'Other lists: 20 symbols out of view polled every ~30 s; alerted and pinned ones keep this pace',
    )
  })
})

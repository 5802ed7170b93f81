import { describe, expect, it } from 'vitest'
import type { BudgetPreview } from '../../../shared/budget'
import { budgetTitle, budgetWords, planName } from './budget-words'

const preview: BudgetPreview = {
  plan: 'growth',
  demo: false,
  symbols: 60,
  streamed: 12,
  polled: 48,
  blocked: 0,
  pollEverySec: 6,
  requestsPerMinute: 21,
  perMinute: 27,
  streamUsed: 12,
  streamCap: 25,
  warnings: [],
}

describe('budget words', () => {
  it('reads like the issue: streamed · polled every ~N s · used/allowed req/min', () => {
    expect(budgetWords(preview)).toBe(
      'this list: 12 streamed · 48 polled every ~6 s · 21/27 req/min',
    )
  })

  it('says when nothing is polled and how many symbols the plan lacks', () => {
    expect(
      budgetWords({ ...preview, polled: 0, pollEverySec: null, requestsPerMinute: 0, blocked: 3 }),
    ).toBe('this list: 12 streamed · 0 polled · 3 not in plan · 0/27 req/min')
  })

  it('names the plan and explains the numbers', () => {
    expect(planName({ ...preview, plan: 'pro', demo: true })).toBe('Pro (demo)')
    expect(budgetTitle(preview)).toMatch(/12 of 25 symbols.*21 of the 27 requests/)
  })
})

describe('the budget line with sessions and reasons', () => {
  const preview = {
    plan: 'free' as const,
    demo: false,
    symbols: 30,
    streamed: 10,
    polled: 8,
    quiet: 12,
    quietEverySec: 300,
    blocked: 0,
    pollEverySec: 6,
    requestsPerMinute: 12,
    perMinute: 27,
    streamUsed: 10,
    streamCap: 10,
    warnings: [],
    why: [
      '6 usdt-futures streamed: alone in their poll batch, so streaming them takes a call out of every round.',
    ],
  }
  it('counts closed markets apart and says why symbols stream in the tooltip', () => {
    expect(budgetWords(preview)).toBe(
      'this list: 10 streamed · 8 polled every ~6 s · 12 closed, asked every ~5 min · 12/27 req/min',
    )
    expect(budgetTitle(preview)).toContain('alone in their poll batch')
    expect(budgetTitle(preview)).toContain(
      'Closed markets are asked every ~5 min, and in every call',
    )
  })
})

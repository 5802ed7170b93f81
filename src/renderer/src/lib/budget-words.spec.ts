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

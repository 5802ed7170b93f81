import { afterEach, describe, expect, it } from 'vitest'
import { PLAN_LIMITS } from '../../shared/markets/market'
import { callsPerRound, planBudget, planBudgetOnPlan, pollSpacingMs } from './budget-preview'
import { FakeClock } from '../clock'
import { PRIORITY } from './feed-planner'
import { QuotePoller } from '../poll/quote-poller'
import { seededRandom } from '../random'
import { RateGovernor } from '../rest/rate-governor'
import { RestClient } from '../rest/rest-client'
import { ok, startRestServer, until, type RestTestServer } from '../testing/rest-test-server'

const PACING = { share: 0.8, minIntervalMs: 5_000 }
const FREE = { streamCap: PLAN_LIMITS.free.wsSymbols, perMinute: 27, pacing: PACING }
const keys = (market: string, n: number, suffix = ''): string[] =>
  Array.from({ length: n }, (_, i) => `${market}:S${String(i).padStart(3, '0')}${suffix}`)
const watched = (list: string[], visible: string[] = []) =>
  list.map((key) => ({ key, priority: visible.includes(key) ? PRIORITY.visible : PRIORITY.other }))

describe('planBudget', () => {
  it('streams up to the plan cap, visible symbols first, never agriculture', () => {
    const list = [...keys('agri', 3, '1!'), ...keys('crypto', 12)]
    const visible = ['agri:S0001!', ...keys('crypto', 12).slice(10)]
    const plan = planBudget({ ...FREE, watched: watched(list, visible), blockedMarkets: new Set() })
    expect(plan.streamed).toHaveLength(10)
    expect(plan.streamed).toEqual(expect.arrayContaining(['crypto:S010', 'crypto:S011']))
    expect(plan.streamed.some((k) => k.startsWith('agri:'))).toBe(false)
    expect(plan.polled).toEqual(expect.arrayContaining(keys('agri', 3, '1!')))
    expect(plan.polled).toHaveLength(5)
  })

  it('counts a closed market apart: asked every 5 min, so the open markets poll faster', () => {
    // 16:00 UTC on Tuesday 10 March 2026: Shanghai and Hong Kong are closed, FX trades.
    const now = Date.UTC(2026, 2, 10, 16, 0)
    const list = [...keys('fx', 60), ...keys('cn', 60), ...keys('hk', 60)]
    const input = {
      ...FREE,
      streamCap: 0,
      watched: watched(list),
      blockedMarkets: new Set<never>(),
    }
    const allOpen = planBudget(input)
    const plan = planBudget({ ...input, now })
    expect(plan.quiet).toHaveLength(120)
    expect(plan.polled).toEqual(keys('fx', 60))
    // 4 calls a round (180 multi-market symbols) without sessions, 2 with them.
    expect(allOpen.callsPerRound).toBe(4)
    expect(plan.callsPerRound).toBe(2)
    expect(plan.pollEveryMs as number).toBeLessThan((allOpen.pollEveryMs as number) / 1.9)
    // The quiet round: 3 calls every 5 minutes, under one request a minute.
    expect(plan.requestsPerMinute).toBe(
      Math.round((2 * 60_000) / (plan.pollEveryMs as number) + 0.6),
    )
  })

  it('counts slow helpers (FX conversion pairs) apart, once a minute', () => {
    const now = Date.UTC(2026, 2, 10, 16, 0)
    const list = [...keys('fx', 50), 'fx:USDHKD']
    const input = {
      ...FREE,
      streamCap: 0,
      watched: watched(list),
      blockedMarkets: new Set<never>(),
    }
    const plan = planBudget({ ...input, now, slow: new Set(['fx:USDHKD']) })
    expect(plan.slow).toEqual(['fx:USDHKD'])
    expect(plan.callsPerRound).toBe(1)
    expect(plan.requestsPerMinute).toBe(Math.round(60_000 / (plan.pollEveryMs as number) + 1))
  })

  it('batches a polling round by endpoint family, 50 a call, agriculture on the multi-market quote', () => {
    expect(callsPerRound(keys('crypto', 120))).toBe(3)
    expect(callsPerRound([...keys('fx', 20), ...keys('hk', 20), ...keys('index', 20)])).toBe(2)
    expect(callsPerRound([...keys('usdt-futures', 1), ...keys('agri', 4, '1!')])).toBe(2)
    expect(callsPerRound([...keys('fx', 30), ...keys('agri', 30, '1!')])).toBe(2)
  })

  it('polls no faster than the minimum interval, slower when a round takes longer', () => {
    // The governor's window is 61 s (a second of slack for arrival jitter): 21 calls in it.
    expect(pollSpacingMs(27, 0.8)).toBe(Math.ceil(61_000 / 21))
    const spacing = pollSpacingMs(27, 0.8)
    const few = planBudget({ ...FREE, watched: watched(keys('fx', 30)), blockedMarkets: new Set() })
    expect(few).toMatchObject({ callsPerRound: 1, pollEveryMs: 5_000, requestsPerMinute: 12 })
    const many = [
      ...keys('fx', 60),
      ...keys('crypto', 60),
      ...keys('usdt-futures', 10),
      ...keys('agri', 3, '1!'),
    ]
    const slow = planBudget({
      ...FREE,
      streamCap: 0,
      watched: watched(many),
      blockedMarkets: new Set(),
    })
    expect(slow.callsPerRound).toBe(5)
    expect(slow.pollEveryMs).toBe(5 * spacing)
    expect(slow.requestsPerMinute).toBe(Math.round((5 * 60_000) / (5 * spacing)))
  })

  it('leaves out a market the key was refused: neither streamed nor polled', () => {
    const list = [...keys('futures', 4, '1!'), ...keys('fx', 2)]
    const plan = planBudget({
      ...FREE,
      streamCap: 0,
      watched: watched(list),
      blockedMarkets: new Set(['futures']),
    })
    expect(plan.blocked).toHaveLength(4)
    expect(plan.polled).toEqual(keys('fx', 2))
  })

  it('costs nothing when everything streams', () => {
    const plan = planBudget({
      ...FREE,
      watched: watched(keys('crypto', 4)),
      blockedMarkets: new Set(),
    })
    expect(plan).toMatchObject({ callsPerRound: 0, pollEveryMs: null, requestsPerMinute: 0 })
  })
})

describe('the preview follows the real QuotePoller', () => {
  let server: RestTestServer | null = null
  let poller: QuotePoller | null = null
  afterEach(async () => {
    poller?.stop()
    await server?.close()
  })

  it('predicts the interval and requests per minute the poller then runs at on Free', async () => {
    server = await startRestServer((req) => {
      const symbols = (req.query.get('symbols') ?? '').split(',').filter(Boolean)
      return ok(symbols.map((symbol) => ({ symbol, last: 1 })))
    })
    const clock = new FakeClock()
    const governor = new RateGovernor({ rpm: PLAN_LIMITS.free.rpm, clock, random: seededRandom(1) })
    const client = new RestClient({ baseUrl: server.url, apiKey: 'key-budget-1', governor, clock })
    const polls = new Map<string, number>()
    const p = new QuotePoller({
      client,
      governor,
      clock,
      onUpdates: (u) => {
        for (const x of u) polls.set(x.symbol, (polls.get(x.symbol) ?? 0) + 1)
      },
      onSymbolStatus: () => undefined,
    })
    poller = p
    const list = [...keys('crypto', 60), ...keys('usdt-futures', 20), ...keys('fx', 30)]
    const plan = planBudget({
      ...FREE,
      streamCap: 0,
      perMinute: governor.snapshot().perMinute,
      pacing: p.pacing(),
      watched: watched(list),
      blockedMarkets: new Set(),
    })
    p.setSymbols(list)
    p.start()
    const minutes = 3
    for (let t = 0; t < minutes * 60_000; t += 250) {
      clock.advance(250)
      await until(() => p.stats().inFlight === 0)
      await Promise.resolve()
    }
    const perMinute = server.requests.length / minutes
    expect(perMinute / plan.requestsPerMinute).toBeGreaterThan(0.85)
    expect(perMinute / plan.requestsPerMinute).toBeLessThan(1.15)
    const meanInterval = (minutes * 60_000) / (server.requests.length / plan.callsPerRound)
    expect(meanInterval / (plan.pollEveryMs as number)).toBeGreaterThan(0.85)
    expect(meanInterval / (plan.pollEveryMs as number)).toBeLessThan(1.15)
  })
})

describe('planBudgetOnPlan', () => {
  it("bounds the Free mix's polled median: 2 calls a round, each symbol every 5 s, median 2.5 s", () => {
    const mix = [...keys('crypto', 32), ...keys('usdt-futures', 6), ...keys('fx', 22)]
    const plan = planBudgetOnPlan(
      'free',
      mix.map((key) => ({ key, priority: PRIORITY.visible })),
    )
    expect(plan).toMatchObject({ callsPerRound: 2, perMinute: 27, pollEveryMs: 5_000 })
    expect(plan.pollMedianBoundMs).toBe(2_500)
  })

  it('paces a large Enterprise watch by the plan: 4800 polled in 96 calls, no faster than 5 s', () => {
    const many = [...keys('crypto', 2000), ...keys('fx', 3000)]
    const plan = planBudgetOnPlan(
      'enterprise',
      many.map((key) => ({ key, priority: PRIORITY.other })),
    )
    expect(plan.streamed).toHaveLength(200)
    expect(plan.callsPerRound).toBe(96)
    expect(plan.pollEveryMs).toBe(Math.max(5_000, 96 * pollSpacingMs(2700, 1)))
  })
})

describe('planBudget for lists out of view', () => {
  const rules = { streamCap: 0, perMinute: 27, pacing: { share: 1, minIntervalMs: 5_000 } }
  const spacing = pollSpacingMs(27, 1)

  it('paces background symbols at 30 s and the rest at 5 s while the budget lasts', () => {
    const plan = planBudget({
      ...rules,
      watched: [
        ...keys('crypto', 10).map((key) => ({ key, priority: PRIORITY.visible })),
        ...keys('fx', 40).map((key) => ({ key, priority: PRIORITY.background })),
      ],
      blockedMarkets: new Set(),
    })
    expect(plan).toMatchObject({
      callsPerRound: 1,
      pollEveryMs: 5_000,
      backgroundPolled: 40,
      backgroundCallsPerRound: 1,
      backgroundPollEveryMs: 30_000,
      requestsPerMinute: 14,
    })
  })

  it('stretches both paces together when the budget is short', () => {
    const plan = planBudget({
      ...rules,
      watched: [
        ...keys('crypto', 150).map((key) => ({ key, priority: PRIORITY.visible })),
        ...keys('fx', 50).map((key) => ({ key, priority: PRIORITY.background })),
      ],
      blockedMarkets: new Set(),
    })
    const every = Math.round(spacing * (3 + 1 / 6))
    expect(plan.pollEveryMs).toBe(every)
    expect(plan.backgroundPollEveryMs).toBe(Math.round(spacing * (3 + 1 / 6) * 6))
    expect(plan.requestsPerMinute).toBeLessThanOrEqual(27)
  })
})

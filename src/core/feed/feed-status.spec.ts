import { describe, expect, it } from 'vitest'
import { TickdeskError } from '../errors'
import { deriveFeedStatus, type FeedFacts } from './feed-status'
import type { GovernorSnapshot } from '../rest/rate-governor'

const governor = (over: Partial<GovernorSnapshot> = {}): GovernorSnapshot => ({
  state: 'open',
  code: null,
  message: '',
  retryAt: null,
  usedLastMinute: 3,
  perMinute: 27,
  callsToday: 40,
  ...over,
})

const facts = (over: Partial<FeedFacts> = {}): FeedFacts => ({
  started: true,
  governor: governor(),
  streamState: 'open',
  streamRetryAt: null,
  streamSymbols: 4,
  streamCap: 10,
  lastError: null,
  watchedCount: 6,
  plan: 'free',
  demo: false,
  ...over,
})

describe('deriveFeedStatus', () => {
  it('is live with the stream open and REST healthy, carrying budget and stream usage', () => {
    const s = deriveFeedStatus(facts())
    expect(s).toMatchObject({ state: 'live', code: null, stream: { symbols: 4, cap: 10 } })
    expect(s.budget).toEqual({ usedLastMinute: 3, perMinute: 27, callsToday: 40 })
  })

  it('puts a stop (401) above a quota pause and a quota pause above a rate pause', () => {
    const stopped = deriveFeedStatus(
      facts({ governor: governor({ state: 'stopped', code: 'UNAUTHORIZED' }) }),
    )
    expect(stopped).toMatchObject({ state: 'stopped', code: 'UNAUTHORIZED' })
    const quota = deriveFeedStatus(
      facts({ governor: governor({ state: 'quota', code: 'DAILY_LIMIT_EXCEEDED', retryAt: 5 }) }),
    )
    expect(quota).toMatchObject({ state: 'paused', code: 'DAILY_LIMIT_EXCEEDED', retryAt: 5 })
    const rate = deriveFeedStatus(
      facts({ governor: governor({ state: 'paused', code: 'RATE_LIMIT_EXCEEDED', retryAt: 9 }) }),
    )
    expect(rate).toMatchObject({ state: 'paused', code: 'RATE_LIMIT_EXCEEDED', retryAt: 9 })
  })

  it('is offline with the next retry time when REST backs off and the stream is down', () => {
    const s = deriveFeedStatus(
      facts({
        governor: governor({ state: 'backoff', code: 'NETWORK', retryAt: 2_000 }),
        streamState: 'reconnecting',
        streamRetryAt: 1_500,
        lastError: new TickdeskError({ code: 'NETWORK', message: 'refused' }),
      }),
    )
    expect(s).toMatchObject({ state: 'offline', code: 'NETWORK', retryAt: 1_500 })
  })

  it('is degraded, not live, when the stream is open but REST polling is backing off', () => {
    const s = deriveFeedStatus(
      facts({
        governor: governor({ state: 'backoff', code: 'UPSTREAM_UNAVAILABLE', retryAt: 3_000 }),
      }),
    )
    expect(s).toMatchObject({ state: 'degraded', code: 'UPSTREAM_UNAVAILABLE', retryAt: 3_000 })
  })

  it('says polling when the stream is refused by the connection cap', () => {
    const s = deriveFeedStatus(
      facts({
        streamState: 'reconnecting',
        lastError: new TickdeskError({ code: 'WS_CONN_LIMIT', message: 'cap' }),
      }),
    )
    expect(s).toMatchObject({ state: 'degraded', code: 'WS_CONN_LIMIT' })
    expect(s.message).toMatch(/polling/i)
  })
})

import { describe, expect, it } from 'vitest'
import { baseStatus } from '../testing/fake-api'
import { budgetUsage, connectionWords, streamUsage } from './status-words'

describe('status bar words', () => {
  const now = 1_000_000
  it('says Live when live and Polling when degraded with the stream down', () => {
    expect(connectionWords(baseStatus(), now)).toBe('Live')
    const degraded = baseStatus({
      state: 'degraded',
      stream: { state: 'reconnecting', symbols: 0, cap: 10 },
    })
    expect(connectionWords(degraded, now)).toBe('Polling')
  })
  it('counts down to the reconnect when offline with retryAt, else says Offline', () => {
    expect(connectionWords(baseStatus({ state: 'offline', retryAt: now + 4200 }), now)).toBe(
      'Reconnecting in 5 s',
    )
    expect(connectionWords(baseStatus({ state: 'offline' }), now)).toBe('Offline')
  })
  it('tells quota pauses from rate-limit pauses', () => {
    expect(
      connectionWords(baseStatus({ state: 'paused', code: 'DAILY_LIMIT_EXCEEDED' }), now),
    ).toBe('Paused: quota')
    expect(
      connectionWords(baseStatus({ state: 'paused', code: 'KEY_RATE_LIMIT_EXCEEDED' }), now),
    ).toBe('Paused: rate limit')
  })
  it('names the code when stopped', () => {
    expect(connectionWords(baseStatus({ state: 'stopped', code: 'UNAUTHORIZED' }), now)).toBe(
      'Stopped: UNAUTHORIZED',
    )
  })
  it('shows stream symbols against the plan cap and requests against the budget', () => {
    const s = baseStatus({
      stream: { state: 'open', symbols: 4, cap: 10 },
      budget: { usedLastMinute: 12, perMinute: 27, callsToday: 3 },
    })
    expect(streamUsage(s)).toBe('all lists: 4 of 10 stream slots')
    expect(budgetUsage(s)).toBe('12/27 req/min')
  })
})

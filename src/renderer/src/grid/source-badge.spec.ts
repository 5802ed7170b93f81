import { describe, expect, it } from 'vitest'
import { looksStale, sourceBadge } from './source-badge'

describe('source badge', () => {
  it('says why a refused symbol has no price instead of "Waiting"', () => {
    const badge = (statusCode: 'FORBIDDEN' | 'INVALID_REQUEST'): string =>
      sourceBadge({ source: null, stale: false, statusCode, feedState: 'live' }).label
    expect(badge('FORBIDDEN')).toBe('Not in plan')
    expect(badge('INVALID_REQUEST')).toBe('Unknown symbol')
  })
})

describe('a market out of session', () => {
  const base = {
    source: 'poll' as const,
    stale: true,
    statusCode: null,
    feedState: 'live' as const,
  }
  it('reads Closed or Lunch break, not Stale, and is not styled stale', () => {
    expect(sourceBadge({ ...base, session: { state: 'closed', stateName: 'Closed' } })).toEqual({
      kind: 'closed',
      label: 'Closed',
    })
    expect(
      sourceBadge({ ...base, session: { state: 'break', stateName: 'Lunch break' } }).label,
    ).toBe('Lunch break')
    expect(looksStale({ ...base, session: { state: 'closed', stateName: 'Closed' } })).toBe(false)
    expect(sourceBadge({ ...base, session: { state: 'open', stateName: 'Open' } }).label).toBe(
      'Stale',
    )
  })
  it('still says what is wrong with the symbol first', () => {
    expect(
      sourceBadge({
        ...base,
        statusCode: 'MARKET_NOT_ENABLED',
        session: { state: 'closed', stateName: 'Closed' },
      }).label,
    ).toBe('Not in plan')
  })
})

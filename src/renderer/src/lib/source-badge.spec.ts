import { describe, expect, it } from 'vitest'
import { sourceBadge } from './source-badge'

describe('source badge', () => {
  it('says why a refused symbol has no price instead of "Waiting"', () => {
    const badge = (statusCode: 'FORBIDDEN' | 'INVALID_REQUEST'): string =>
      sourceBadge({ source: null, stale: false, statusCode, feedState: 'live' }).label
    expect(badge('FORBIDDEN')).toBe('Not in plan')
    expect(badge('INVALID_REQUEST')).toBe('Unknown symbol')
  })
})

import { describe, expect, it } from 'vitest'
import { openingCandidates, openingInterval } from './opening-interval'

describe('the interval a chart of built bars opens at', () => {
  it('opens at 1m when 1h has one bar and 1m has enough (a symbol first seen an hour ago)', () => {
    expect(openingInterval('1h', { '1h': 1, '15m': 4, '5m': 12, '1m': 58 }, 30)).toBe('1m')
  })

  it('keeps the coarsest interval that has enough, and the wanted one when it has', () => {
    expect(openingInterval('1h', { '1h': 6, '15m': 24, '5m': 70, '1m': 350 }, 30)).toBe('5m')
    expect(openingInterval('1h', { '1h': 40, '1m': 1000 }, 30)).toBe('1h')
  })

  it('takes the one with the most bars where none has enough, and the wanted one with none known', () => {
    expect(openingInterval('1h', { '1h': 1, '5m': 3, '1m': 9 }, 30)).toBe('1m')
    expect(openingInterval('4h', { '4h': 0, '1h': 0, '1m': 0 }, 30)).toBe('4h')
    expect(openingInterval('1h', {}, 30)).toBe('1h')
  })

  it('asks from the wanted interval down to 1m, never coarser', () => {
    expect(openingCandidates('1h')).toEqual(['1h', '15m', '5m', '1m'])
    expect(openingCandidates('1m')).toEqual(['1m'])
  })
})

import { describe, expect, it } from 'vitest'
import {
  effectiveMotion,
  PAGE_MS,
  pageTops,
  scrollDurationMs,
  stripWatchlist,
} from './strip-motion'

const lists = [
  { id: 'a', name: 'A', symbols: [] },
  { id: 'b', name: 'B', symbols: ['fx:EURUSD'] },
]

describe('strip motion', () => {
  it('pages instead of scrolling under prefers-reduced-motion', () => {
    expect(effectiveMotion('scroll', false)).toBe('scroll')
    expect(effectiveMotion('scroll', true)).toBe('page')
    expect(effectiveMotion('page', false)).toBe('page')
  })

  it('turns pages every few seconds and crawls at a readable speed', () => {
    expect(PAGE_MS.slow).toBeGreaterThan(PAGE_MS.normal)
    expect(PAGE_MS.normal).toBeGreaterThan(PAGE_MS.fast)
    expect(scrollDurationMs(1200, 'normal')).toBe(20_000)
    expect(scrollDurationMs(1200, 'fast')).toBeLessThan(scrollDurationMs(1200, 'slow'))
    expect(scrollDurationMs(10, 'fast')).toBe(1000)
  })

  it('finds one page per wrapped line', () => {
    expect(pageTops([0, 0, 0.4, 40, 40, 80])).toEqual([0, 40, 80])
    expect(pageTops([])).toEqual([])
  })

  it('shows the chosen list, else the active one, else the first', () => {
    expect(stripWatchlist(lists, 'b', 'a')?.id).toBe('b')
    expect(stripWatchlist(lists, 'gone', 'a')?.id).toBe('a')
    expect(stripWatchlist(lists, null, null)?.id).toBe('a')
    expect(stripWatchlist([], null, null)).toBeNull()
  })
})

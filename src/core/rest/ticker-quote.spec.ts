import { describe, expect, it } from 'vitest'
import { TickdeskError } from '../errors'
import { parseTickerQuotes } from './ticker-quote'

const AT = Date.UTC(2026, 10, 27, 9, 30)

describe('parseTickerQuotes', () => {
  it('reads data: null as "no quote": no rows, and nothing wrong with the service', () => {
    expect(parseTickerQuotes(null, 'cn', AT)).toEqual({ updates: [], skipped: 0, tags: null })
    expect(parseTickerQuotes(undefined, 'cn', AT).updates).toEqual([])
  })

  it('still calls a payload that is no list at all a bad response', () => {
    expect(() => parseTickerQuotes('quotes', 'cn', AT)).toThrow(TickdeskError)
  })

  it('reads a closeTime without an offset in the exchange’s zone, not the user’s', () => {
    // 17:30 in Shanghai is 09:30 UTC, whatever TZ the process runs in.
    const [u] = parseTickerQuotes(
      [{ symbol: '600519', last: 1500, closeTime: '2026-11-27T17:30:00' }],
      'cn',
      AT + 60_000,
    ).updates
    expect(u?.ts).toBe(AT)
  })

  it('reads prices with thousands separators and a 0 last as no trade yet', () => {
    const [u] = parseTickerQuotes(
      [{ symbol: '600519', last: 0, bid: '1,499.50', prevClose: '1,502.00' }],
      'cn',
      AT,
    ).updates
    expect(u?.fields).toEqual({ bid: 1499.5, prevClose: 1502 })
  })
})

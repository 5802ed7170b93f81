import { describe, expect, it } from 'vitest'
import { parseTickerQuotes } from './ticker-quote'

describe('service rows with control characters in their symbol or market tag', () => {
  it('are skipped, never kept as a symbol or a tag', () => {
    const parsed = parseTickerQuotes(
      [
        { symbol: 'BTC\u001b[2JUSDT', last: 1 },
        { symbol: 'ETHUSDT', last: 2, market: 'spot\u001b]52;c;x\u0007' },
        { symbol: 'XRPUSDT', last: 3, market: 'spot' },
      ],
      'crypto',
      0,
    )
    expect(parsed.updates.map((u) => u.symbol)).toEqual(['ETHUSDT', 'XRPUSDT'])
    expect(parsed.skipped).toBe(1)
    expect([...(parsed.tags ?? new Map())]).toEqual([['XRPUSDT', 'spot']])
  })
})

import { describe, expect, it } from 'vitest'
import { klineRoute } from '../../src/core/rest/market-routes'
import { MARKETS, hasCandleEndpoint } from '../../src/shared/markets/market'

describe('which markets have a candle endpoint', () => {
  it('the chart (shared/market) and the engine (core/market-routes) name the same markets', () => {
    for (const m of MARKETS) expect([m, hasCandleEndpoint(m)]).toEqual([m, klineRoute(m) !== null])
  })
})

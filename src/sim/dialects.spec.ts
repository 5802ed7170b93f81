import { describe, expect, it } from 'vitest'
import { DIALECTS, tickFrames } from './dialects'

describe('push market words', () => {
  const tick = { symbol: 'BTCUSDT', market: 'usdt-futures', last: 84_000, ts: 1 }

  it("names the market in the client's words by default, in the service's own when asked", () => {
    expect(JSON.parse(tickFrames(DIALECTS.typed, [tick])[0] ?? '{}').market).toBe('usdt-futures')
    const service = { ...DIALECTS.typed, pushMarkets: 'service' as const }
    expect(JSON.parse(tickFrames(service, [tick])[0] ?? '{}').market).toBe('futures_usdt')
  })
})

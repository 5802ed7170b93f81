import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_KEY, startSimulator, type SimServer } from './index'
import { getJson } from './testing/spec-client'

let sim: SimServer
beforeAll(async () => {
  sim = await startSimulator({ seed: 3 })
})
afterAll(async () => {
  await sim.close()
})

describe('generated universe for scale runs', () => {
  it('quotes Z-symbols in their own market only and notes when each was served', async () => {
    const coins = await getJson(
      sim.url,
      '/api/v1/market/crypto/quote?symbols=ZC00001,ZC04999',
      DEMO_KEY,
    )
    expect(coins.status).toBe(200)
    expect(sim.servedAt().get('crypto:ZC00001')).toBeGreaterThan(0)
    expect(sim.servedAt().has('crypto:ZC04999')).toBe(true)
    const hk = await getJson(sim.url, '/api/v1/market/quote?symbols=ZH00042', DEMO_KEY)
    expect(hk.status).toBe(200)
    expect(sim.servedAt().has('hk:ZH00042')).toBe(true)
    // A coin's name is not a Hong Kong stock, and nothing was served for a refused request.
    const wrong = await getJson(sim.url, '/api/v1/market/crypto/quote?symbols=ZH00042', DEMO_KEY)
    expect(wrong.status).toBe(400)
    expect(sim.servedAt().has('crypto:ZH00042')).toBe(false)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../util/clock'
import { QUOTA_LIMITED_DAILY, startSimulator, type SimServer } from './index'
import { getJson } from './testing/spec-client'

/** The switches of behaviour.ts, each seen from the wire. */

let sim: SimServer | null = null
afterEach(async () => {
  await sim?.close()
  sim = null
})

type Body = { succ: boolean; code?: string; data: Array<Record<string, unknown>> }

describe('simulator behaviour switches', () => {
  it('end-of-day closeTime: quotes carry the close of the UTC day, not the snapshot time', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 14, 30))
    sim = await startSimulator({ clock, behaviour: { quoteCloseTime: 'end-of-day' } })
    const r = await getJson(sim.url, '/api/v1/market/quote?symbols=EURUSD', sim.keys.pro)
    expect((r.body as Body).data[0]?.closeTime).toBe(Date.UTC(2026, 0, 6) - 1)
    await sim.close()
    sim = await startSimulator({ clock })
    const d = await getJson(sim.url, '/api/v1/market/quote?symbols=EURUSD', sim.keys.pro)
    expect((d.body as Body).data[0]?.closeTime).toBe(clock.now())
  })

  it('quota without Retry-After: a daily-quota 429 does not say when the quota resets', async () => {
    for (const quotaRetryAfter of [true, false]) {
      sim = await startSimulator({ behaviour: { quotaRetryAfter } })
      const path = '/api/v1/market/crypto/quote?symbols=BTCUSDT'
      for (let i = 0; i < QUOTA_LIMITED_DAILY; i++)
        await getJson(sim.url, path, sim.keys.quotaLimited)
      const r = await getJson(sim.url, path, sim.keys.quotaLimited)
      expect([r.status, (r.body as Body).code]).toEqual([429, 'DAILY_LIMIT_EXCEEDED'])
      expect(r.headers.has('retry-after')).toBe(quotaRetryAfter)
      await sim.close()
      sim = null
    }
  })

  it('agri on the multi-market quote: served, or refused as UNKNOWN_SYMBOL', async () => {
    sim = await startSimulator({ behaviour: { agriOnMultiQuote: false } })
    const path = '/api/v1/market/quote?symbols=ZC1!'
    const off = await getJson(sim.url, path, sim.keys.pro)
    expect([off.status, (off.body as Body).code]).toEqual([400, 'UNKNOWN_SYMBOL'])
    await sim.close()
    sim = await startSimulator()
    const on = await getJson(sim.url, path, sim.keys.pro)
    expect((on.body as Body).data[0]).toMatchObject({ symbol: 'ZC1!', market: 'agri' })
  })

  it("403 without a code: a market outside the key's scope is refused with an envelope but no code", async () => {
    sim = await startSimulator({ behaviour: { forbiddenWithoutCode: true } })
    const r = await getJson(sim.url, '/api/v1/market/quote?symbols=EURUSD', sim.keys.cryptoOnly)
    expect(r.status).toBe(403)
    expect(r.body).toEqual({ succ: false, data: null, msg: expect.any(String) })
  })

  it('refusals name the symbols, or only say what went wrong', async () => {
    sim = await startSimulator({ behaviour: { refusalNamesSymbols: false } })
    const r = await getJson(sim.url, '/api/v1/market/quote?symbols=EURUSD,ZZZNOPE', sim.keys.pro)
    expect(r.body).toMatchObject({ code: 'UNKNOWN_SYMBOL', msg: 'unknown symbol' })
  })
})

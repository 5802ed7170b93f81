import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../util/clock'
import { startSimulator, QUOTA_LIMITED_DAILY, type SimServer } from './index'
import { SlidingWindow } from './limits'
import { SIM_PLANS } from './plans'
import { getJson, openStream, spendDailyQuota } from './testing/spec-client'

const QUOTE = '/api/v1/market/crypto/quote?symbols=BTCUSDT'
let sim: SimServer | null = null
afterEach(async () => {
  await sim?.close()
  sim = null
})

describe("the plan table (the simulator's own, from the spec)", () => {
  it("states the spec's RPM and approximate stream caps under both of the spec's plan names", () => {
    expect(SIM_PLANS).toEqual({
      free: { names: ['Free', 'Trial'], rpm: 30, wsConnections: 1, wsSymbols: 10 },
      growth: { names: ['Growth', 'Standard'], rpm: 120, wsConnections: 3, wsSymbols: 25 },
      pro: { names: ['Pro'], rpm: 600, wsConnections: 10, wsSymbols: 50 },
      enterprise: { names: ['Enterprise'], rpm: 3000, wsConnections: 50, wsSymbols: 200 },
    })
  })
})

describe('SlidingWindow', () => {
  it('admits `limit` requests per rolling 60 s and reports when the oldest one leaves', () => {
    const w = new SlidingWindow(3)
    for (const t of [0, 10_000, 20_000]) {
      expect(w.check(t)).toBeNull()
      w.record(t)
    }
    expect(w.check(30_000)).toBe(30_000)
    expect(w.check(60_000)).toBeNull()
  })
})

describe('per-key RPM', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED with Retry-After until the oldest request leaves the window', async () => {
    const clock = new FakeClock()
    sim = await startSimulator({ clock, rpmOverride: { free: 3 } })
    const key = sim.keys.free
    for (let i = 0; i < 3; i++) {
      expect((await getJson(sim.url, QUOTE, key)).status).toBe(200)
      clock.advance(5_000)
    }
    const limited = await getJson(sim.url, QUOTE, key)
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ succ: false, code: 'RATE_LIMIT_EXCEEDED' })
    expect(limited.headers.get('retry-after')).toBe('45')
    clock.advance(44_000)
    expect((await getJson(sim.url, QUOTE, key)).status).toBe(429)
    clock.advance(1_000)
    expect((await getJson(sim.url, QUOTE, key)).status).toBe(200)
    expect(sim.stats().byKey[key]).toMatchObject({ requests: 6, http429: 2 })
  })

  it('meters keys separately and leaves other plans alone', async () => {
    const clock = new FakeClock()
    sim = await startSimulator({ clock, rpmOverride: { free: 1 } })
    expect((await getJson(sim.url, QUOTE, sim.keys.free)).status).toBe(200)
    expect((await getJson(sim.url, QUOTE, sim.keys.free)).status).toBe(429)
    expect((await getJson(sim.url, QUOTE, sim.keys.pro)).status).toBe(200)
  })

  it('counts a stream handshake toward RPM and refuses the upgrade with 429 and Retry-After', async () => {
    const clock = new FakeClock()
    sim = await startSimulator({ clock, rpmOverride: { growth: 2 } })
    expect((await getJson(sim.url, QUOTE, sim.keys.growth)).status).toBe(200)
    const first = await openStream(sim.streamUrl, sim.keys.growth)
    expect(first.ok).toBe(true)
    const second = await openStream(sim.streamUrl, sim.keys.growth)
    expect(second).toMatchObject({ ok: false, status: 429 })
    if (!second.ok) {
      expect(second.headers['retry-after']).toBe('60')
      expect(JSON.parse(second.body)).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' })
    }
    expect(sim.stats()).toMatchObject({ requests: 3, restRequests: 1, wsHandshakes: 2, http429: 1 })
    if (first.ok) first.q.ws.close()
  })

  it('does not meter pushes', async () => {
    sim = await startSimulator({ rpmOverride: { pro: 2 }, tickIntervalMs: 5 })
    const o = await openStream(sim.streamUrl, sim.keys.pro)
    if (!o.ok) throw new Error('refused')
    o.q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT'] })
    for (let i = 0; i < 5; i++) await o.q.next((f) => f.type === 'tick')
    expect((await getJson(sim.url, QUOTE, sim.keys.pro)).status).toBe(200)
    expect(sim.stats().requests).toBe(2)
    o.q.ws.close()
  })
})

describe('daily quota', () => {
  it(`answers 429 DAILY_LIMIT_EXCEEDED after ${QUOTA_LIMITED_DAILY} requests with Retry-After to UTC midnight`, async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 23, 0, 0))
    sim = await startSimulator({ clock, rpmOverride: { free: 1000 } })
    const key = sim.keys.quotaLimited
    const over = await spendDailyQuota(sim.url, QUOTE, key, QUOTA_LIMITED_DAILY)
    expect(over.status).toBe(429)
    expect((over.body as { code: string }).code).toBe('DAILY_LIMIT_EXCEEDED')
    expect(over.headers.get('retry-after')).toBe('3600')
    clock.advance(3_600_000)
    expect((await getJson(sim.url, QUOTE, key)).status).toBe(200)
  })
})

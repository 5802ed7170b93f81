import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../util/clock'
import { startSimulator, QUOTA_LIMITED_DAILY, type SimServer } from '../index'
import type { TickerQuote } from './price-walk'
import { getJson, openStream, spendDailyQuota } from '../testing/spec-client'
import { DAY_MS, TradingDay } from './trading-day'

const QUOTE = '/api/v1/market/crypto/quote?symbols=BTCUSDT'
const T0 = Date.UTC(2026, 0, 5, 14, 30, 0)
let sim: SimServer | null = null
afterEach(async () => {
  await sim?.close()
  sim = null
})

/** The quote as the service sends it: the simulator's own TickerQuote. */
type Quote = TickerQuote

async function btc(s: SimServer): Promise<Quote> {
  const reply = await getJson(s.url, QUOTE, s.keys.enterprise)
  expect(reply.status).toBe(200)
  return (reply.body as { data: Quote[] }).data[0] as Quote
}

describe('TradingDay', () => {
  it('cuts time into UTC days until a day is ended early, and never numbers a day twice', () => {
    const d = new TradingDay()
    expect(d.startOf(T0)).toBe(Date.UTC(2026, 0, 5))
    expect(d.msLeft(T0)).toBe(Date.UTC(2026, 0, 6) - T0)
    const today = d.index(T0)
    d.endsIn(T0, 90_000)
    expect(d.index(T0)).toBe(today)
    expect(d.index(T0 + 89_999)).toBe(today)
    expect(d.index(T0 + 90_000)).toBe(today + 1)
    expect(d.msLeft(T0 + 10_000)).toBe(80_000)
    // The new day is a whole day long and starts at the moment chosen.
    expect(d.startOf(T0 + 90_000)).toBe(T0 + 90_000)
    expect(d.msLeft(T0 + 90_000)).toBe(DAY_MS)
    // Ending it now moves on one day, and later calls keep moving forward.
    d.endsIn(T0 + 100_000, 0)
    expect(d.index(T0 + 100_000)).toBe(today + 2)
    d.endsIn(T0 + 100_000, DAY_MS)
    expect(d.index(T0 + 100_000)).toBe(today + 2)
    expect(() => d.endsIn(T0, DAY_MS + 1)).toThrow(RangeError)
    expect(() => d.endsIn(T0, -1)).toThrow(RangeError)
  })
})

describe("the simulator's day roll-over", () => {
  it("starts a new day in the quotes: the last price becomes the previous close, the day's figures restart", async () => {
    const clock = new FakeClock(T0)
    sim = await startSimulator({ clock, seed: 7 })
    for (let i = 0; i < 5; i++) await btc(sim)
    const before = await btc(sim)
    expect(before.openTime).toBe(Date.UTC(2026, 0, 5))
    expect(before.volume).toBeGreaterThan(0)
    sim.day.endsIn(60_000)
    clock.advance(30_000)
    expect((await btc(sim)).prevClose).toBe(before.prevClose)
    const lastOfDay = (await btc(sim)).last
    clock.advance(30_000)
    const after = await btc(sim)
    expect(after.prevClose).toBe(lastOfDay)
    expect(after.prevClose).not.toBe(before.prevClose)
    expect(after.openTime).toBe(T0 + 60_000)
    expect(after.closeTime).toBe(clock.now())
    expect(after.open).toBe(lastOfDay)
    // One step into the new day: the change is that one step, and the day's range holds it.
    expect(Math.abs(after.changePercent)).toBeLessThan(0.5)
    expect(after.change).toBeCloseTo(after.last - after.prevClose, 6)
    expect(after.high).toBe(Math.max(lastOfDay, after.last))
    expect(after.low).toBe(Math.min(lastOfDay, after.last))
    expect(after.volume).toBeLessThan(before.volume)
    expect(after.trades).toBeLessThan(before.trades)
  })

  it('resets the daily quota when the day ends, with Retry-After counting down to that moment', async () => {
    const clock = new FakeClock(T0)
    sim = await startSimulator({ clock, rpmOverride: { free: 1000 } })
    const key = sim.keys.quotaLimited
    sim.day.endsIn(125_000)
    const over = await spendDailyQuota(sim.url, QUOTE, key, QUOTA_LIMITED_DAILY)
    expect(over.status).toBe(429)
    expect((over.body as { code: string }).code).toBe('DAILY_LIMIT_EXCEEDED')
    expect(over.headers.get('retry-after')).toBe('125')
    clock.advance(100_000)
    expect((await getJson(sim.url, QUOTE, key)).headers.get('retry-after')).toBe('25')
    clock.advance(25_000)
    for (let i = 0; i < QUOTA_LIMITED_DAILY; i++)
      expect((await getJson(sim.url, QUOTE, key)).status).toBe(200)
    // The new day is a full one: the next reset is a day away.
    expect((await getJson(sim.url, QUOTE, key)).headers.get('retry-after')).toBe(
      String(DAY_MS / 1000),
    )
  })

  it('refuses REST and handshakes of a key whose quota another tool spent, until the day ends', async () => {
    const clock = new FakeClock(T0)
    sim = await startSimulator({ clock })
    const key = sim.keys.pro
    const open = await openStream(sim.streamUrl, key)
    expect(open.ok).toBe(true)
    sim.day.endsIn(30_000)
    sim.day.spendQuota(key)
    const rest = await getJson(sim.url, QUOTE, key)
    expect(rest.status).toBe(429)
    expect((rest.body as { code: string }).code).toBe('DAILY_LIMIT_EXCEEDED')
    expect(rest.headers.get('retry-after')).toBe('30')
    const refused = await openStream(sim.streamUrl, key)
    expect(refused.ok).toBe(false)
    if (!refused.ok) {
      expect(refused.status).toBe(429)
      expect(refused.headers['retry-after']).toBe('30')
    }
    // Other keys are not touched, and the open socket is not closed by the quota.
    expect((await getJson(sim.url, QUOTE, sim.keys.growth)).status).toBe(200)
    expect(sim.stats().wsOpen).toBe(1)
    clock.advance(30_000)
    expect((await getJson(sim.url, QUOTE, key)).status).toBe(200)
    const again = await openStream(sim.streamUrl, key)
    expect(again.ok).toBe(true)
    if (open.ok) open.q.ws.close()
    if (again.ok) again.q.ws.close()
    expect(() => sim?.day.spendQuota('no-such-key')).toThrow(/no key/)
  })
})

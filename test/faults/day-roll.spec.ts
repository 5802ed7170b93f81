import { afterEach, describe, expect, it } from 'vitest'
import { getJson } from '../../src/sim/testing/spec-client'
import { CRYPTO12, pricedKeys, startSession, type Session } from './harness'

/**
 * The service's trading day rolls over (the simulator's day ends on demand, the timestamps stay
 * real): every change % restarts from the new previous close, and a key that ran out of its daily
 * quota waits for the reset the Retry-After names, then resumes at once. Counted on the service.
 */

let s: Session | null = null
afterEach(async () => {
  await s?.close()
  s = null
})

/** The service's previous close per key, asked with another key (its meters are untouched). */
async function prevCloses(session: Session): Promise<Map<string, number>> {
  const symbols = CRYPTO12.map((k) => k.split(':')[1]).join(',')
  const reply = await getJson(
    session.sim.url,
    `/api/v1/market/crypto/quote?symbols=${symbols}`,
    session.sim.keys.enterprise,
  )
  const rows = (reply.body as { data: Array<{ symbol: string; prevClose: number }> }).data
  return new Map(rows.map((r) => [`crypto:${r.symbol}`, r.prevClose]))
}

/** Keys whose change % does not agree with the service's previous close (0.001 % slack). */
function offDay(session: Session, closes: Map<string, number>): string[] {
  return CRYPTO12.filter((key) => {
    const q = session.engine.quotes.get(key)
    const prev = closes.get(key)
    if (!q || q.last === null || q.changePercent === null || prev === undefined) return true
    return Math.abs(q.changePercent - ((q.last - prev) / prev) * 100) > 0.001
  })
}

describe('faults: the day rolls over', () => {
  it('restarts every change % from the new previous close within seconds, streamed and polled', async () => {
    s = await startSession({ symbols: CRYPTO12, plan: 'free', key: (x) => x.keys.free })
    const session = s
    expect(await session.until(() => pricedKeys(session.engine).length === 12, 60_000)).toBe(true)
    await session.run(20_000)
    const before = await prevCloses(session)
    session.sim.day.roll()
    const after = await prevCloses(session)
    expect([...after].filter(([k, v]) => before.get(k) !== v).length).toBe(12)
    // Polled rows wait for their next turn (12 symbols on 30 RPM); streamed ones move at once.
    expect(await session.until(() => offDay(session, after).length === 0, 30_000)).toBe(true)
    // and stay on the new day: no tick brings back the old day's change.
    for (let i = 0; i < 20; i++) {
      await session.run(1_000)
      expect(offDay(session, after)).toEqual([])
    }
  })

  it('waits out a spent daily quota until the day ends, then streams and polls again within 5 s', async () => {
    s = await startSession({ symbols: CRYPTO12, plan: 'free', key: (x) => x.keys.free })
    const session = s
    expect(await session.until(() => pricedKeys(session.engine).length === 12, 60_000)).toBe(true)
    const rollAt = session.clock.now() + 120_000
    session.sim.day.endsIn(120_000)
    session.sim.day.spendQuota(session.sim.keys.free)
    session.sim.faults.dropSockets()
    expect(
      await session.until(() => session.engine.status().code === 'DAILY_LIMIT_EXCEEDED', 30_000),
    ).toBe(true)
    const retryAt = session.engine.status().retryAt as number
    expect(retryAt).toBeGreaterThan(session.clock.now())
    expect(retryAt).toBeLessThanOrEqual(rollAt + 1_000)
    const sentAtHit = session.sim.stats().requests
    await session.run(rollAt - session.clock.now() - 250)
    // Locked out: at most a request or two already on the way when the 429 came back.
    const duringLockout = session.sim.stats().requests - sentAtHit
    expect(duringLockout).toBeLessThanOrEqual(2)
    expect(session.engine.quotes.all().every((q) => q.stale)).toBe(true)
    const sentAtRoll = session.sim.stats().requests
    await session.run(250)
    const closes = await prevCloses(session)
    const fresh = await session.until(
      () =>
        session.engine.status().state === 'live' &&
        session.engine.quotes.all().every((q) => !q.stale) &&
        offDay(session, closes).length === 0,
      5_000,
    )
    expect(fresh, JSON.stringify(session.engine.status())).toBe(true)
    expect(session.sim.stats().requests).toBeGreaterThan(sentAtRoll)
    await session.run(60_000)
    expect(session.maxPerMinute()).toBeLessThanOrEqual(30)
  })
})

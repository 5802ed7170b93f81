import { afterEach, describe, expect, it } from 'vitest'
import type { FakeClock } from '../clock'
import { rig, service, stopPollerRig, symbolsOf } from '../testing/poller-rig'

afterEach(stopPollerRig)

describe('QuotePoller across market sessions', () => {
  /** When each symbol was asked, on the fake clock. */
  async function timed(keys: string[], start: number, ms: number): Promise<Map<string, number[]>> {
    let clock: FakeClock | null = null
    const asked = new Map<string, number[]>()
    const answer = service()
    const r = await rig(
      (req) => {
        for (const s of symbolsOf(req)) asked.set(s, [...(asked.get(s) ?? []), clock?.now() ?? 0])
        return answer(req)
      },
      120,
      start,
    )
    clock = r.clock
    r.p.setSymbols(keys)
    r.p.start()
    await r.run(ms, 1_000)
    return asked
  }

  it('asks a closed market every 5 minutes and spends the rest on open ones', async () => {
    // Tuesday 10 March 2026 16:00 UTC: Shanghai is closed (midnight), crypto trades. No call
    // of Shanghai's endpoint is made anyway, so it gets calls of its own, every 5 minutes.
    const start = Date.UTC(2026, 2, 10, 16, 0)
    const asked = await timed(['cn:600519', 'crypto:BTCUSDT'], start, 11 * 60_000)
    const cn = asked.get('600519') ?? []
    expect(cn[0]).toBeLessThanOrEqual(start + 1_000)
    // (the loopback server reads the fake clock up to one 1 s step after the send)
    expect(cn.map((t) => Math.round((t - (cn[0] ?? 0)) / 60_000))).toEqual([0, 5, 10])
    expect((asked.get('BTCUSDT') ?? []).length).toBeGreaterThan(60)
  })

  it('carries a closed market in the calls its open neighbours make anyway, at no cost', async () => {
    // FX trades and shares Shanghai's endpoint: Shanghai rides in each FX call.
    const start = Date.UTC(2026, 2, 10, 16, 0)
    const requests: string[][] = []
    const answer = service()
    const r = await rig(
      (req) => {
        requests.push(symbolsOf(req))
        return answer(req)
      },
      120,
      start,
    )
    r.p.setSymbols(['cn:600519', 'fx:EURUSD'])
    r.p.start()
    await r.run(2 * 60_000, 1_000)
    expect(requests.length).toBeGreaterThan(20)
    // Every call carries both: not one call more than FX alone would make.
    expect(requests.every((syms) => syms.includes('EURUSD') && syms.includes('600519'))).toBe(true)
  })

  it('asks a slow helper symbol (an FX conversion pair) once a minute, rows at full pace', async () => {
    const start = Date.UTC(2026, 2, 10, 16, 0)
    let clock: FakeClock | null = null
    const asked = new Map<string, number>()
    const answer = service()
    const r = await rig(
      (req) => {
        for (const s of symbolsOf(req)) asked.set(s, (asked.get(s) ?? 0) + 1)
        return answer(req)
      },
      120,
      start,
    )
    clock = r.clock
    r.p.setSymbols(['fx:USDHKD', 'fx:EURUSD'])
    r.p.setSlow(['fx:USDHKD'])
    r.p.start()
    await r.run(3 * 60_000 + 30_000, 1_000)
    expect(clock.now() - start).toBe(210_000)
    expect(asked.get('USDHKD')).toBe(4)
    expect(asked.get('EURUSD') ?? 0).toBeGreaterThan(30)
  })

  it('asks a closed market the moment it opens, then at the full pace', async () => {
    // 09:22 Shanghai time: asked at once, not again until the 09:30 open, then every ~5 s (24 in 2 min).
    const start = Date.UTC(2026, 2, 10, 1, 22)
    const open = Date.UTC(2026, 2, 10, 1, 30)
    const asked = (await timed(['cn:600519'], start, 10 * 60_000)).get('600519') ?? []
    expect(asked[0]).toBeLessThanOrEqual(start + 1_000)
    expect(Math.round(((asked[1] ?? 0) - (asked[0] ?? 0)) / 1_000)).toBeCloseTo(300, -1)
    expect(asked[1]).toBeLessThan(open)
    expect(asked[2]).toBeGreaterThanOrEqual(open)
    expect((asked[2] ?? 0) - open).toBeLessThanOrEqual(2_000)
    expect(asked.filter((t) => t >= open).length).toBeGreaterThan(20)
  })
})

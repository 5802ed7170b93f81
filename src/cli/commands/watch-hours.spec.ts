import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, type MarketHours, type SimServer } from '../../sim'
import { tradingWindow } from '../../shared/markets/trading-hours'
import { runCli, serviceEnv, tempDataDir } from '../testing/cli-harness'
import { run } from './watch'

// The shipped timetables asked at a Shanghai night (Wed 2026-11-25 02:00 CST) instead of the
// wall clock's instant: the simulator's prices and timestamps stay on the real clock, which the
// client checks, while its markets keep the hours of that night.
const SHANGHAI_NIGHT = Date.UTC(2026, 10, 24, 18, 0)
let offset = 0
const atShanghaiNight: MarketHours = (market, symbol, at) => {
  const w = tradingWindow(market, symbol, at + offset)
  return { trading: w.trading, until: w.until === null ? null : w.until - offset }
}

let sim: SimServer
let data: Awaited<ReturnType<typeof tempDataDir>>
beforeEach(async () => {
  offset = SHANGHAI_NIGHT - Date.now()
  sim = await startSimulator({ seed: 7, tickIntervalMs: 50, hours: atShanghaiNight })
  data = await tempDataDir()
})
afterEach(async () => {
  await sim.close()
  await data.remove()
})

describe('tickdesk watch during the Shanghai night (the simulator keeps the shipped hours)', () => {
  it('prints one unchanged price for cn:600519 while crypto keeps moving', async () => {
    const r = runCli(run, ['cn:600519', 'crypto:BTCUSDT', '--duration', '2', '--json'], {
      env: serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro' }),
    })
    expect(await r.exit).toBe(0)
    const quotes = r.lines().filter((l) => l.type === 'quote')
    const prices = (symbol: string): Set<unknown> =>
      new Set(quotes.filter((q) => q.symbol === symbol).map((q) => q.last))
    expect(prices('600519').size).toBe(1)
    expect([...prices('600519')][0]).toEqual(expect.any(Number))
    expect(prices('BTCUSDT').size).toBeGreaterThan(5)
  })
})

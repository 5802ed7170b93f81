import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'
import { MarketEngine } from './engine'

/**
 * A coin and its perpetual share a symbol; a service whose pushes name no market cannot say
 * which one a push is for. Each row must show its own market's price: held every 250 ms against
 * the simulator's record of what it served for that very market and symbol (the perpetual trades
 * at a basis to spot, so the other's price is not one served for it).
 */
const run = simEngineRun()
const WATCH = ['crypto:BTCUSDT', 'usdt-futures:BTCUSDT', 'crypto:ETHUSDT']

describe('a symbol two watched markets share, pushed with no market tag', () => {
  it("lands in its own row: streamed in one market, the other polled, never the other's price", async () => {
    const s = (run.sim = await startSimulator({
      seed: 5,
      tickIntervalMs: 100,
      behaviour: { push: { pushMarkets: 'none' } },
    }))
    const e = (run.engine = new MarketEngine(simEngineConfig(s)))
    for (const k of WATCH) e.watch(k)
    const t0 = Date.now()
    e.start()
    const wrong: string[] = []
    let streamedPerp = false
    while (Date.now() - t0 < 12_000) {
      await new Promise((r) => setTimeout(r, 250))
      const now = Date.now()
      if (now - t0 < 4_000) continue
      for (const k of WATCH) {
        const q = e.quotes.get(k)
        if (q === undefined || q.last === null) continue
        const at = s.lastServedAt(k, q.last, now)
        if (at === null || now - at > 10_000) wrong.push(`${k} ${q.last} (${q.source})`)
        if (k === 'usdt-futures:BTCUSDT' && q.source === 'stream') streamedPerp = true
      }
    }
    expect(wrong).toEqual([])
    // The stream still carries the shared symbol, in the smaller family (the perpetual's).
    expect(streamedPerp).toBe(true)
    expect(s.streamedKeys()).toContain('usdt-futures:BTCUSDT')
    expect(s.streamedKeys()).not.toContain('crypto:BTCUSDT')
  }, 30_000)
})

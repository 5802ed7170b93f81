import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import { INSTRUMENTS } from '../../sim/market/instruments'
import { MarketEngine } from './engine'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'

/**
 * A symbol the poller answered a moment ago that gets a stream slot is not asked again for its
 * first snapshot: the answer has the fields pushes may lack. While stream names are learned,
 * symbols go from polling to a slot and back within seconds, and each snapshot was a call the
 * Free plan's minute could not spare (bench/freshness/freshness-timeline.ts). Counted by the
 * simulator: the requests that named the symbol.
 */
const run = simEngineRun()

describe('a polled symbol that takes a freed stream slot', () => {
  it('is not asked again for a snapshot when its poll answer is fresh', async () => {
    const s = (run.sim = await startSimulator({ seed: 4, tickIntervalMs: 100 }))
    const e = (run.engine = new MarketEngine(
      simEngineConfig(s, { apiKey: s.keys.free, plan: 'free', rpm: 30 }),
    ))
    const keys = INSTRUMENTS.filter((i) => i.market === 'crypto')
      .slice(0, 11)
      .map((i) => `crypto:${i.symbol}`)
    const stops = keys.map((k) => e.watch(k))
    e.start()
    await expect.poll(() => s.streamedKeys().size, { timeout: 5_000 }).toBe(10)
    const polled = keys.find((k) => !s.streamedKeys().has(k)) as string
    const symbol = polled.split(':')[1] as string
    await expect.poll(() => s.stats().symbolAsks[symbol] ?? 0, { timeout: 5_000 }).toBe(1)
    // A streamed symbol leaves the list: the polled one takes its slot.
    stops[keys.findIndex((k) => s.streamedKeys().has(k))]?.()
    await expect.poll(() => s.streamedKeys().has(polled), { timeout: 3_000 }).toBe(true)
    await new Promise((r) => setTimeout(r, 1_500))
    expect(s.stats().symbolAsks[symbol]).toBe(1)
  })
})

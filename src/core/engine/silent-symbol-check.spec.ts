import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import { MarketEngine } from './engine'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'

/**
 * No silent symbol: the service stops pushing one streamed symbol while its price goes
 * on moving (REST still quotes it). Its quote must not freeze under Live: a REST check after the
 * market's bound sees the move, and the symbol polls from then on. Observed from outside: the
 * quote's age, sampled, and the simulator's count of REST asks for the symbol.
 */
const run = simEngineRun()
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe('a streamed symbol the stream stops feeding', () => {
  it('gets a REST check within its bound and is polled after, never frozen for long', async () => {
    const s = (run.sim = await startSimulator({ seed: 6, tickIntervalMs: 200 }))
    const e = (run.engine = new MarketEngine(simEngineConfig(s)))
    for (const k of ['crypto:BTCUSDT', 'crypto:ETHUSDT']) e.watch(k)
    e.start()
    await expect
      .poll(() => e.quotes.get('crypto:BTCUSDT')?.source, { timeout: 10_000 })
      .toBe('stream')
    await sleep(1_000)
    const asksBefore = s.stats().symbolAsks.BTCUSDT ?? 0
    s.faults.muteSymbol('crypto', 'BTCUSDT')
    let worst = 0
    const t0 = Date.now()
    while (Date.now() - t0 < 20_000) {
      await sleep(250)
      const q = e.quotes.get('crypto:BTCUSDT')
      worst = Math.max(worst, Date.now() - (q?.receivedAt ?? 0))
    }
    // The crypto bound is 4 s; a check and a 5 s poll pace keep it well under 10 s.
    expect(worst).toBeLessThanOrEqual(10_000)
    const asks = (s.stats().symbolAsks.BTCUSDT ?? 0) - asksBefore
    expect(asks).toBeGreaterThanOrEqual(2)
    expect(e.quotes.get('crypto:ETHUSDT')?.source).toBe('stream')
    expect(s.stats().http429).toBe(0)
    console.log(`muted symbol: worst age ${worst} ms, ${asks} REST asks in 20 s`)
  }, 40_000)
})

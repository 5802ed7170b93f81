import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import { INSTRUMENTS } from '../../sim/market/instruments'
import { MarketEngine } from './engine'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'

/**
 * The Free-plan mix on a service that knows its markets by other names and leaves our
 * names' subscriptions silent: once a name is proven for crypto and the perpetuals, their
 * symbols take the stream slots at once, not after another market's trial bound (which held
 * them for good: 3 crypto and 1 FX streamed where 4 crypto and 6 perpetuals empty a poll call).
 * Seen from the service's side: what its sockets are subscribed to.
 */
const run = simEngineRun()

describe('stream slots while market names are learned', () => {
  it('go to the markets whose name was proven within 8 s, not to a market still on trial', async () => {
    const s = (run.sim = await startSimulator({
      seed: 11,
      behaviour: { marketNames: 'service', unknownMarket: 'silent' },
    }))
    const e = (run.engine = new MarketEngine(
      simEngineConfig(s, { apiKey: s.keys.free, plan: 'free', rpm: 30 }),
    ))
    const pick = (market: string, n: number): string[] =>
      INSTRUMENTS.filter((i) => i.market === market)
        .slice(0, n)
        .map((i) => `${market}:${i.symbol}`)
    for (const k of [...pick('crypto', 32), ...pick('usdt-futures', 6), ...pick('fx', 8)])
      e.watch(k)
    e.start()
    const markets = (): string[] => [...s.streamedKeys()].map((k) => k.split(':')[0] as string)
    await expect
      .poll(() => markets().filter((m) => m === 'usdt-futures' || m === 'crypto').length, {
        timeout: 8_000,
        interval: 100,
      })
      .toBe(10)
  }, 15_000)
})

import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import { clockAt } from '../../util/testing/clock-at'
import { MarketEngine } from './engine'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'
import { ANSWER_BOUND_MS } from '../stream/stream-market-names'

/**
 * Symbols riding a stream name on trial: Hong Kong's first try waits 12 s for a push (its bound),
 * on a service that acks our word and stays silent. Their rows must still show a price the
 * service served within 10 s: REST keeps them fresh while the name is tried. Observed from
 * outside: the quotes' ages every 100 ms from the sixth second, and when the service's word first streamed.
 */
const run = simEngineRun()
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
/** Tuesday 6 January 2026, 10:30 in Hong Kong: the exchange trades (whatever day the suite runs). */
const HK_MORNING = Date.UTC(2026, 0, 6, 2, 30)
const WATCH = ['hk:00700', 'hk:09988'] as const

describe('symbols on a stream name’s trial longer than 10 s', () => {
  it('keep a price no older than 10 s while the name is tried', async () => {
    expect(ANSWER_BOUND_MS.hk).toBeGreaterThan(10_000)
    const s = (run.sim = await startSimulator({
      seed: 9,
      tickIntervalMs: 200,
      behaviour: { marketNames: 'service', unknownMarket: 'silent' },
    }))
    const clock = clockAt(HK_MORNING)
    const e = (run.engine = new MarketEngine(simEngineConfig(s), { clock }))
    for (const k of WATCH) e.watch(k)
    const t0 = Date.now()
    e.start()
    let worstAge = 0
    let learnedAt: number | null = null
    while (Date.now() - t0 < 16_000) {
      await sleep(100)
      const now = clock.now()
      // From the sixth second: the first snapshot has long answered.
      for (const k of Date.now() - t0 > 5_000 ? WATCH : []) {
        const q = e.quotes.get(k)
        worstAge = Math.max(worstAge, q === undefined ? Infinity : now - q.receivedAt)
      }
      const hk = e.streamNames.report().find((r) => r.market === 'hk')
      if (learnedAt === null && hk?.state === 'streaming') learnedAt = Date.now() - t0
    }
    // The trial really ran past 10 s: the service's word streamed only after our word's bound.
    expect(learnedAt ?? Infinity).toBeGreaterThan(10_000)
    expect(worstAge).toBeLessThanOrEqual(10_000)
    expect(s.stats()).toMatchObject({ wsHandshakes: 1, http429: 0 })
    console.log(
      `hk trial: service word streaming at ${learnedAt} ms, worst quote age ${worstAge} ms`,
    )
  }, 30_000)
})

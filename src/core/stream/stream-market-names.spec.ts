import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import type { FeedStatus } from '../../shared/status'
import { MarketEngine } from '../engine/engine'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'
import { isQuiet } from '../poll/session-pacing'

/**
 * A service whose stream knows markets by its own words (the simulator's 'service' naming:
 * spot, futures_usdt, forex), refusing ours with an error frame or acking them and staying
 * silent: from the sixth second no quote is older than 10 s, the trader is
 * told within 30 s, and every symbol streams again under the service's word within 60 s.
 * Observed from outside: the simulator's own subscriptions and the engine's quote ages.
 */
const run = simEngineRun()

const WATCH = [
  'crypto:BTCUSDT',
  'crypto:ETHUSDT',
  'crypto:SOLUSDT',
  'crypto:XRPUSDT',
  'usdt-futures:DOGEUSDT',
  'usdt-futures:ADAUSDT',
  'fx:EURUSD',
  'fx:USDJPY',
]
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe.each(['refuse', 'silent'] as const)(
  'a service that calls its markets otherwise and %ss ours',
  (unknownMarket) => {
    it('polls at once, says so, and streams again under the service’s word', async () => {
      const s = (run.sim = await startSimulator({
        seed: 9,
        tickIntervalMs: 200,
        behaviour: { marketNames: 'service', unknownMarket },
      }))
      const e = (run.engine = new MarketEngine(simEngineConfig(s)))
      const fxOpen = !isQuiet('fx', 'EURUSD', Date.now())
      const wanted = fxOpen ? WATCH : WATCH.filter((k) => !k.startsWith('fx:'))
      for (const k of WATCH) e.watch(k)
      const t0 = Date.now()
      e.start()
      let toldAt: number | null = null
      let told: FeedStatus | null = null
      e.onStatus((st) => {
        if (toldAt === null && st.code === 'STREAM_MARKET') {
          toldAt = Date.now() - t0
          told = st
        }
      })
      let worstAge = 0
      let streamingAt: number | null = null
      // Looked at every 100 ms: a price 10.2 s old must not pass for one 9.8 s old between looks.
      while (Date.now() - t0 < 60_000) {
        await sleep(100)
        const now = Date.now()
        if (now - t0 > 5_000) {
          for (const k of WATCH) {
            const q = e.quotes.get(k)
            worstAge = Math.max(worstAge, q === undefined ? Infinity : now - q.receivedAt)
          }
        }
        const onStream = s.streamedKeys()
        const allStreamed = wanted.every(
          (k) => onStream.has(k) && e.quotes.get(k)?.source === 'stream',
        )
        if (allStreamed && toldAt !== null) {
          streamingAt = now - t0
          break
        }
      }
      expect(worstAge).toBeLessThanOrEqual(10_000)
      expect(toldAt).not.toBeNull()
      expect(toldAt ?? Infinity).toBeLessThanOrEqual(30_000)
      expect((told as FeedStatus | null)?.message).toMatch(
        /^(Crypto|USDT-M perpetuals|FX): the stream/,
      )
      expect(streamingAt).not.toBeNull()
      expect(streamingAt ?? Infinity).toBeLessThanOrEqual(60_000)
      const names = Object.fromEntries(e.streamNames.report().map((r) => [r.market, r.name]))
      expect(names).toMatchObject({ crypto: 'spot', 'usdt-futures': 'futures_usdt' })
      if (fxOpen) expect(names.fx).toBe('forex')
      // A try is a subscribe, never a handshake: one socket, one handshake.
      expect(s.stats()).toMatchObject({ wsHandshakes: 1, http429: 0 })
      console.log(
        `${unknownMarket}: told at ${toldAt} ms, all streaming at ${streamingAt} ms, worst quote age after 5 s ${worstAge} ms`,
      )
    }, 70_000)
  },
)

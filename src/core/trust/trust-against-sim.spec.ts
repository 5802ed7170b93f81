import { describe, expect, it } from 'vitest'
import { startSimulator, type ServiceBehaviour } from '../../sim'
import { MarketEngine } from '../engine/engine'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'

/**
 * Whatever shape the service's pushes have, the price the engine shows is a price the service
 * served, seconds ago: each case runs the engine against the simulator pushing in one layout,
 * and every 250 ms holds each shown price against the simulator's own record of what it served
 * (REST rows and pushes) for that symbol, not against when a frame arrived. Targets: after the
 * first 10 s no shown price is one the service did not serve in the previous 10 s, no symbol goes
 * 10 s without a price, the trader is told within 30 s while the stream is not used, and the
 * stream carries the symbols again within 60 s when its layout can be read.
 */
const run = simEngineRun()
const WATCH = ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'crypto:SOLUSDT', 'crypto:XRPUSDT']
const SECONDS = 20

interface Seen {
  wrong: string[]
  silentMs: number
  toldAt: number | null
  streamedAllAt: number | null
}

async function watchFor(
  push: ServiceBehaviour['push'],
  extra: Partial<ServiceBehaviour> = {},
): Promise<Seen> {
  const s = (run.sim = await startSimulator({
    seed: 5,
    tickIntervalMs: 100,
    behaviour: { push, ...extra },
  }))
  const e = (run.engine = new MarketEngine(simEngineConfig(s)))
  for (const k of WATCH) e.watch(k)
  const t0 = Date.now()
  e.start()
  const seen: Seen = { wrong: [], silentMs: 0, toldAt: null, streamedAllAt: null }
  while (Date.now() - t0 < SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 250))
    const now = Date.now()
    if (seen.toldAt === null && /Crypto: the stream/.test(e.status().message))
      seen.toldAt = now - t0
    const quotes = WATCH.map((k) => e.quotes.get(k))
    if (seen.streamedAllAt === null && quotes.every((q) => q?.source === 'stream'))
      seen.streamedAllAt = now - t0
    if (now - t0 < 10_000) continue
    for (const [i, q] of quotes.entries()) {
      const key = WATCH[i] as string
      if (q === undefined || q.last === null) {
        seen.wrong.push(`${key}: no price`)
        continue
      }
      const servedAt = s.lastServedAt(key, q.last, now)
      if (servedAt === null || now - servedAt > 10_000)
        seen.wrong.push(`${key} ${q.last} (${q.source})`)
      seen.silentMs = Math.max(seen.silentMs, now - q.receivedAt)
    }
  }
  return seen
}

describe('the price on screen against what the service served, whatever the push layout', () => {
  it.each([
    [
      'the 24-hour ticker, figures as strings, p the change',
      { layout: 'ticker24h', pushMarkets: 'none' },
    ],
    ['keys of the service’s own (instrument, px_last)', { layout: 'own-a' }],
    [
      'keys of the service’s own (sym, lp), no market tag',
      { layout: 'own-b', pushMarkets: 'none' },
    ],
    [
      'thousands separators, REST envelopes round pushes, BTC-USDT',
      { groupedNumbers: true, envelope: true, spelling: 'dashed' },
    ],
  ] as const)(
    '%s: learned against REST, streamed again, never a price not served',
    async (_, push) => {
      const seen = await watchFor({ ...push })
      expect(seen.wrong).toEqual([])
      expect(seen.silentMs).toBeLessThanOrEqual(10_000)
      expect(seen.streamedAllAt).not.toBeNull()
      expect(seen.streamedAllAt as number).toBeLessThan(15_000)
    },
    40_000,
  )

  it('bid and ask only: told within 30 s, polled, every price one REST served', async () => {
    const seen = await watchFor({ layout: 'bid-ask' })
    expect(seen.wrong).toEqual([])
    expect(seen.silentMs).toBeLessThanOrEqual(10_000)
    expect(seen.toldAt).not.toBeNull()
    expect(seen.toldAt as number).toBeLessThan(30_000)
    expect(seen.streamedAllAt).toBeNull()
    expect(run.engine?.status().message).toMatch(
      /Crypto: the stream's pushes carry no price we can read; polled/,
    )
  }, 40_000)
})

import { afterEach, describe, expect, it } from 'vitest'
import { MarketEngine } from '../../src/core/engine/engine'
import type { Logger } from '../../src/core/log'
import { startSimulator, type SimServer } from '../../src/sim'
import { startHoldingProxy, type HoldingProxy } from './holding-proxy'
import { startSilentService, type SilentService } from './silent-service'

/**
 * A reply belongs to the key its request was sent with. A poll sent with a bad key and answered
 * (401) only after the trader entered a good one must not stop the good key's feed: the race
 * key-hygiene.spec.ts met 2 runs in 3 when a REST turn fell between the two keys. Here the bad
 * key's poll is held in flight by a loopback proxy until the good key is in, then let through.
 * The stream points at a silent service, so its handshake neither succeeds nor fails meanwhile
 * and every symbol is polled.
 */
const BAD_KEY = 'sk-bad-key-race-0000'
const SYMBOL = 'crypto:BTCUSDT'

let sim: SimServer | null = null
let proxy: HoldingProxy | null = null
let silent: SilentService | null = null
let engine: MarketEngine | null = null

afterEach(async () => {
  await engine?.stop()
  await proxy?.close()
  await silent?.close()
  await sim?.close()
  engine = proxy = silent = sim = null
})

describe('a key change with a request in flight', () => {
  it("keeps the new key's feed running when the old key's 401 lands after the change", async () => {
    sim = await startSimulator({ seed: 7, tickIntervalMs: 100 })
    proxy = await startHoldingProxy(sim.url, BAD_KEY)
    silent = await startSilentService()
    const replies: number[] = []
    const logger: Logger = {
      log: (_level, message, fields) => {
        if (message.startsWith('GET ') && typeof fields?.status === 'number')
          replies.push(fields.status)
      },
    }
    engine = new MarketEngine(
      {
        baseUrl: proxy.url,
        streamUrl: silent.url.replace('http:', 'ws:'),
        apiKey: BAD_KEY,
        plan: 'pro',
        rpm: 600,
        demo: false,
      },
      { logger },
    )
    const running = engine
    running.watch(SYMBOL)
    running.start()
    await expect.poll(() => proxy?.held(), { timeout: 5_000 }).toBeGreaterThan(0)

    running.setApiKey(sim.keys.pro)
    proxy.release()
    // The held poll's 401 has come back and been read (the log line precedes the outcome's report).
    await expect.poll(() => replies.includes(401), { timeout: 5_000 }).toBe(true)
    await new Promise((r) => setImmediate(r))

    expect(running.status().code).not.toBe('UNAUTHORIZED')
    await expect
      .poll(() => running.quotes.all().find((q) => q.key === SYMBOL)?.last ?? null, {
        timeout: 10_000,
      })
      .not.toBeNull()
    expect(running.status().code).not.toBe('UNAUTHORIZED')
  })
})

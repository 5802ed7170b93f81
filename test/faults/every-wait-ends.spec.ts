import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../src/core/clock'
import { MarketEngine } from '../../src/core/engine/engine'
import { deriveStreamUrl } from '../../src/core/engine/engine-config'
import { isTickdeskError } from '../../src/core/errors'
import { realPause } from './harness'
import { startSilentService, type SilentService } from './silent-service'

/**
 * Every wait ends: against a service that accepts connections and never answers, each
 * wait of the engine the renderer shows as loading (the chart's candles, the search's probe of an
 * unknown symbol, Settings -> Test connection) ends on the engine's clock with a TIMEOUT, never
 * hangs. The renderer turns the code into words that say what to do (bridge-error.ts).
 * Webhooks and the keychain have their own never-answering tests (webhook-sender.spec.ts,
 * secret-store.spec.ts); the bridge's own deadline is in the renderer's bridge specs.
 */

let silent: SilentService | null = null
let engine: MarketEngine | null = null
afterEach(async () => {
  await engine?.stop()
  await silent?.close()
  engine = silent = null
})

async function silentEngine(): Promise<{ engine: MarketEngine; clock: FakeClock }> {
  silent = await startSilentService()
  const clock = new FakeClock()
  engine = new MarketEngine(
    {
      baseUrl: silent.url,
      streamUrl: deriveStreamUrl(silent.url),
      apiKey: 'sk-test-silent',
      plan: 'pro',
      rpm: 600,
      demo: false,
    },
    { clock },
  )
  engine.start()
  return { engine, clock }
}

/** Settles `work` by stepping fake time in 500 ms steps, with real pauses for the sockets. */
async function settleWithin<T>(
  clock: FakeClock,
  work: Promise<T>,
  maxMs: number,
): Promise<{ value?: T; error?: unknown; afterMs: number }> {
  let outcome: { value?: T; error?: unknown } | null = null
  work.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  )
  const start = clock.now()
  await realPause(50)
  while (outcome === null && clock.now() - start <= maxMs) {
    clock.advance(500)
    await realPause(5)
  }
  if (outcome === null) throw new Error(`still waiting after ${maxMs} ms of fake time`)
  return { ...(outcome as { value?: T; error?: unknown }), afterMs: clock.now() - start }
}

describe('every wait ends: a service that never answers', () => {
  it('the chart: getCandles fails as TIMEOUT after the REST timeout, not never', async () => {
    const { engine: e, clock } = await silentEngine()
    const r = await settleWithin(clock, e.getCandles('futures:ES1!', '1h', 300), 60_000)
    expect(isTickdeskError(r.error) && r.error.code, String(r.error)).toBe('TIMEOUT')
    expect(r.afterMs).toBeLessThanOrEqual(15_000)
    expect(silent!.accepted()).toBeGreaterThan(0)
  })

  it('the search probe: an unknown symbol is left unchecked (TIMEOUT), the search goes on', async () => {
    const { engine: e, clock } = await silentEngine()
    const r = await settleWithin(clock, e.probeSymbol('crypto:ZZZTESTUSDT'), 60_000)
    expect(r.value).toMatchObject({ verdict: 'unchecked', code: 'TIMEOUT' })
    expect(r.afterMs).toBeLessThanOrEqual(15_000)
  })

  it('the connection test: finishes with failed checks that name the timeout', async () => {
    const { engine: e, clock } = await silentEngine()
    const r = await settleWithin(clock, e.testConnection(), 120_000)
    const report = r.value!
    expect(report.ok).toBe(false)
    const failed = report.checks.filter((c) => !c.ok)
    expect(failed.length).toBeGreaterThan(0)
    expect(
      failed.some((c) => c.code === 'TIMEOUT'),
      JSON.stringify(report.checks),
    ).toBe(true)
    expect(r.afterMs).toBeLessThanOrEqual(60_000)
  })
})

import { describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../../sim'
import type { FeedStatus } from '../../shared/status'
import { FakeClock } from '../clock'
import { MarketEngine } from './engine'
import { simEngineConfig, simEngineRun } from '../testing/sim-engine'
import { TickdeskError, restStatusOf } from '../errors'
import { RateGovernor } from '../rest/rate-governor'

/**
 * An account-level error frame on an open socket acts within that frame as the REST refusal of
 * the same code would: the status leaves Live within a second with REST's message,
 * and polling stops where REST's refusal stops it.
 */
const run = simEngineRun()

/** What the status says after a REST refusal of this code (the governor's words), digits aside. */
function restMessage(code: string): string {
  const g = new RateGovernor({ rpm: 600, clock: new FakeClock(), random: () => 0.5 })
  g.report({
    ok: false,
    error: new TickdeskError({ code, message: code, status: restStatusOf(code) }),
  })
  return shape(g.snapshot().message)
}
const shape = (m: string): string => m.replace(/[\d][\d:.TZ-]*/g, '#')

function untilStatus(
  e: MarketEngine,
  pred: (s: FeedStatus) => boolean,
  ms: number,
): Promise<FeedStatus> {
  return new Promise((resolve, reject) => {
    if (pred(e.status())) return resolve(e.status())
    const timer = setTimeout(() => reject(new Error(`status: ${JSON.stringify(e.status())}`)), ms)
    const off = e.onStatus((s) => {
      if (!pred(s)) return
      clearTimeout(timer)
      off()
      resolve(s)
    })
  })
}

const STOPS = ['UNAUTHORIZED', 'NO_SUBSCRIPTION', 'SUBSCRIPTION_EXPIRED', 'IP_DENIED', 'GEO_DENIED']
const QUOTAS = ['DAILY_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED']
const RATES = ['RATE_LIMIT_EXCEEDED', 'KEY_RATE_LIMIT_EXCEEDED']

describe('an account-level error frame on an open socket', () => {
  it.each([...STOPS, ...QUOTAS, ...RATES])(
    '%s: the status leaves Live within 1 s with the REST refusal’s message',
    async (code) => {
      const sim = (run.sim = await startSimulator({ seed: 5, tickIntervalMs: 100 }))
      const engine = (run.engine = new MarketEngine(simEngineConfig(sim)))
      for (const s of ['BTCUSDT', 'ETHUSDT']) engine.watch(`crypto:${s}`)
      engine.watch('fx:EURUSD')
      engine.start()
      await untilStatus(engine, (s) => s.state === 'live', 10_000)
      // The first snapshots answered: a call already on its way is not the frame's to stop.
      await expect.poll(() => sim?.stats().restRequests, { timeout: 5_000 }).toBe(2)
      const sentAt = Date.now()
      sim.faults.accountFrame(code)
      const status = await untilStatus(engine, (s) => s.state !== 'live', 5_000)
      const tookMs = Date.now() - sentAt
      expect(tookMs).toBeLessThan(1_000)
      expect(status.code).toBe(code)
      expect(shape(status.message)).toBe(restMessage(code))
      expect(status.state).toBe(
        RATES.includes(code) ? 'paused' : STOPS.includes(code) ? 'stopped' : 'paused',
      )
      if (RATES.includes(code)) return // a pause ends in a second or so, as REST's would
      // Polling stops as it would after the REST refusal: no request reaches the service.
      const before = sim.stats().restRequests
      await new Promise((r) => setTimeout(r, 1_500))
      expect(sim.stats().restRequests).toBe(before)
      expect(engine.status().state).not.toBe('live')
    },
  )
})

describe('a refused REST call', () => {
  it('puts its X-Request-Id in the status message, for the trader to quote', async () => {
    const sim = (run.sim = await startSimulator({ seed: 5, tickIntervalMs: 100 }))
    sim.faults.failNext({ status: 403, code: 'SUBSCRIPTION_EXPIRED', times: 5 })
    const engine = (run.engine = new MarketEngine(simEngineConfig(sim)))
    engine.watch('fx:EURUSD')
    engine.start()
    const status = await untilStatus(
      engine,
      (s) => s.code === 'SUBSCRIPTION_EXPIRED' && s.message.includes('request id'),
      5_000,
    )
    expect(status.message).toMatch(/\(request id [\w-]+ - quote it to your provider\)$/)
  })
})

describe('a scope frame naming no symbols (API_KEY_SCOPE_DENIED, MARKET_NOT_ENABLED)', () => {
  const boot = async (watch: string[]): Promise<{ sim: SimServer; engine: MarketEngine }> => {
    const s = (run.sim = await startSimulator({ seed: 5, tickIntervalMs: 100 }))
    const e = (run.engine = new MarketEngine(simEngineConfig(s)))
    for (const k of watch) e.watch(k)
    e.start()
    await untilStatus(e, (st) => st.state === 'live', 10_000)
    return { sim: s, engine: e }
  }

  it('on a socket with nothing subscribed: leaves Live within 1 s, says the stream is out of scope, and does not reconnect', async () => {
    const { sim: s, engine: e } = await boot(['agri:ZC1!'])
    const handshakes = s.stats().wsHandshakes
    const sentAt = Date.now()
    s.faults.accountFrame('API_KEY_SCOPE_DENIED')
    const status = await untilStatus(e, (st) => st.state !== 'live', 5_000)
    expect(Date.now() - sentAt).toBeLessThan(1_000)
    expect(status.code).toBe('API_KEY_SCOPE_DENIED')
    expect(status.message).toMatch(/stream is not available on this plan or key/)
    await new Promise((r) => setTimeout(r, 1_500))
    expect(s.stats().wsHandshakes).toBe(handshakes)
    expect(e.status().state).not.toBe('live')
  })

  it('on a socket with symbols: those markets get REST’s refusal and are asked no more', async () => {
    const { sim: s, engine: e } = await boot(['crypto:BTCUSDT', 'crypto:ETHUSDT'])
    await expect.poll(() => s.streamedKeys().size, { timeout: 5_000 }).toBe(2)
    s.faults.accountFrame('API_KEY_SCOPE_DENIED')
    await expect
      .poll(() => e.symbolStatuses().map((x) => x.message), { timeout: 2_000 })
      .toEqual([
        expect.stringMatching(
          /^crypto is not available on this plan or key \(API_KEY_SCOPE_DENIED\)/,
        ),
        expect.stringMatching(
          /^crypto is not available on this plan or key \(API_KEY_SCOPE_DENIED\)/,
        ),
      ])
    // Their slots went; polling them stays blocked, as after REST's 403 of the same code.
    const asked = (): number =>
      (s.stats().symbolAsks.BTCUSDT ?? 0) + (s.stats().symbolAsks.ETHUSDT ?? 0)
    const before = asked()
    await new Promise((r) => setTimeout(r, 6_000))
    expect(asked()).toBe(before)
    expect(s.streamedKeys().size).toBe(0)
  })
})

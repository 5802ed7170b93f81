import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QUOTA_LIMITED_DAILY, startSimulator, type SimServer } from '../../sim'
import { getJson, mustOpen } from '../../sim/testing/spec-client'
import { systemClock } from '../clock'
import { fetchCandles } from './candles-client'
import { runDoctor } from '../doctor/doctor'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { QuotePoller } from '../poll/quote-poller'
import { seededRandom } from '../random'
import { RateGovernor } from './rate-governor'
import { RestClient } from './rest-client'
import { until } from '../testing/rest-test-server'

let sim: SimServer
beforeAll(async () => {
  sim = await startSimulator({ seed: 1 })
})
afterAll(async () => {
  await sim.close()
})

function client(key: string, governor = newGovernor()): RestClient {
  return new RestClient({ baseUrl: sim.url, apiKey: key, governor })
}

function newGovernor(): RateGovernor {
  return new RateGovernor({ rpm: 600, clock: systemClock, random: seededRandom(1) })
}

describe('REST side against the simulator', () => {
  it('polls crypto, fx and agri quotes and isolates an unknown symbol', async () => {
    const governor = newGovernor()
    const rest = client(sim.keys.pro, governor)
    const updates: QuoteUpdate[] = []
    const statuses: string[] = []
    const poller = new QuotePoller({
      client: rest,
      governor,
      clock: systemClock,
      onUpdates: (u) => updates.push(...u),
      onSymbolStatus: (s) => statuses.push(`${s.key}=${s.code}`),
    })
    poller.setSymbols(['crypto:BTCUSDT', 'crypto:NOSUCHUSDT', 'fx:EURUSD', 'agri:ZC1!'])
    poller.pollNow()
    poller.start()
    try {
      await until(
        () =>
          statuses.includes('crypto:NOSUCHUSDT=UNKNOWN_SYMBOL') &&
          statuses.includes('crypto:BTCUSDT=OK') &&
          updates.some((u) => u.market === 'agri'),
        5_000,
      )
    } finally {
      poller.stop()
    }
    const btc = updates.find((u) => u.symbol === 'BTCUSDT')
    expect(btc?.fields.last).toBeGreaterThan(1000)
    expect(updates.some((u) => u.market === 'fx' && u.symbol === 'EURUSD')).toBe(true)
    expect(statuses).toContain('crypto:BTCUSDT=OK')
  })

  it('fetches futures candles from the simulator as ascending hourly bars', async () => {
    const bars = await fetchCandles(client(sim.keys.pro), 'futures:ES1!', '1h', 50)
    expect(bars.length).toBe(50)
    expect(bars[1]!.openTime - bars[0]!.openTime).toBe(3_600_000)
    expect(bars[0]!.closeTime).toBeGreaterThan(bars[0]!.openTime)
  })

  it('doctor: reports the families a crypto-only key lacks within 6 metered requests', async () => {
    const before = sim.stats().requests
    const report = await runDoctor({
      baseUrl: sim.url,
      streamUrl: sim.streamUrl,
      apiKey: sim.keys.cryptoOnly,
      plan: 'pro',
    })
    const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]))
    expect(byName.key?.ok).toBe(true)
    expect(byName.crypto?.ok).toBe(true)
    expect(byName['usdt-futures']?.ok).toBe(true)
    for (const f of ['multi', 'futures-kline', 'agri-kline'])
      expect(byName[f]?.code).toBe('MARKET_NOT_ENABLED')
    expect(byName.stream?.ok).toBe(true)
    expect(report.requestsSpent).toBe(6)
    expect(sim.stats().requests - before).toBe(6)
    expect(report.ok).toBe(true)
  })

  it('doctor: an upgrade followed by WS_CONN_LIMIT is not a working stream', async () => {
    const holder = await mustOpen(sim.streamUrl, sim.keys.free)
    try {
      const report = await runDoctor({ baseUrl: sim.url, apiKey: sim.keys.free, plan: 'free' })
      expect(report.checks.find((c) => c.name === 'stream')).toMatchObject({
        ok: false,
        code: 'WS_CONN_LIMIT',
      })
      expect(report.ok).toBe(false)
    } finally {
      holder.ws.close()
    }
  })

  it('doctor: stops after one request when the key is rejected', async () => {
    const before = sim.stats().requests
    const report = await runDoctor({ baseUrl: sim.url, apiKey: 'not-a-real-key-123', plan: 'free' })
    expect(report.ok).toBe(false)
    expect(report.checks[0]).toMatchObject({ name: 'key', ok: false, code: 'UNAUTHORIZED' })
    expect(report.requestsSpent).toBe(1)
    expect(sim.stats().requests - before).toBeLessThanOrEqual(1)
  })

  it('doctor: stops at the daily quota and skips the checks after it, spending no more', async () => {
    const key = sim.keys.quotaLimited
    for (let i = 1; i < QUOTA_LIMITED_DAILY; i++) {
      const r = await getJson(sim.url, '/api/v1/market/crypto/quote?symbols=BTCUSDT', key)
      expect(r.status).toBe(200)
    }
    const report = await runDoctor({ baseUrl: sim.url, apiKey: key, plan: 'free' })
    expect(report.checks.map((c) => [c.name, c.code ?? null])).toEqual([
      ['key', null],
      ['crypto', null],
      ['usdt-futures', 'DAILY_LIMIT_EXCEEDED'],
      ['multi', 'DAILY_LIMIT_EXCEEDED'],
      ['futures-kline', 'DAILY_LIMIT_EXCEEDED'],
      ['agri-kline', 'DAILY_LIMIT_EXCEEDED'],
      ['stream', 'DAILY_LIMIT_EXCEEDED'],
    ])
    expect(report.checks.slice(3).every((c) => c.message.startsWith('skipped after'))).toBe(true)
    expect(report.requestsSpent).toBe(2)
  })

  it('doctor: says SUBSCRIPTION_EXPIRED for an expired account', async () => {
    const report = await runDoctor({ baseUrl: sim.url, apiKey: sim.keys.expired, plan: 'pro' })
    expect(report.checks[0]).toMatchObject({ name: 'key', ok: false, code: 'SUBSCRIPTION_EXPIRED' })
  })
})

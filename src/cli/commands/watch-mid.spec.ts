import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../../sim'
import { runCli, serviceEnv, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'
import { run as watch } from './watch'
import { shapeReceiver } from '../../app/testing/shape-receiver'
import { midOf } from '../../shared/spread'

/**
 * `watch` and alerts on a service that quotes FX with bid and ask only (the simulator's
 * bidAskOnly reading, REST and stream): the price shown is the mid, and every line says so.
 */

let sim: SimServer
let data: Awaited<ReturnType<typeof tempDataDir>>

beforeEach(async () => {
  sim = await startSimulator({ seed: 11, tickIntervalMs: 50, behaviour: { bidAskOnly: ['fx'] } })
  data = await tempDataDir()
})
afterEach(async () => {
  await sim.close()
  await data.remove()
})

const env = (): NodeJS.ProcessEnv =>
  serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro' })

describe('tickdesk watch on a symbol quoted with bid and ask only', () => {
  it('--json: the price is the mid of a bid and ask the service served, with priceIs "mid"', async () => {
    const from = Date.now()
    const r = runCli(watch, ['fx:EURUSD', 'crypto:BTCUSDT', '--json', '--duration', '3'], {
      env: env(),
    })
    expect(await r.exit).toBe(0)
    const quotes = r.lines().filter((l) => l.type === 'quote' && l.last !== null)
    const fx = quotes.filter((q) => q.symbol === 'EURUSD')
    expect(fx.length).toBeGreaterThan(0)
    const served = sim
      .served('fx:EURUSD', from, Date.now())
      .filter((s) => s.bid !== undefined && s.ask !== undefined)
    expect(served.every((s) => s.last === undefined)).toBe(true)
    for (const q of fx) {
      expect(q.priceIs).toBe('mid')
      expect(q.last).toBe(midOf(q.bid as number, q.ask as number))
      // A price the service served (as the mid of its bid and ask) before the line was printed.
      expect(sim.lastServedAt('fx:EURUSD', q.last as number, Date.now())).not.toBeNull()
    }
    const crypto = quotes.filter((q) => q.symbol === 'BTCUSDT')
    expect(crypto.length).toBeGreaterThan(0)
    for (const q of crypto) expect(q.priceIs).toBe('last')
  })

  it('text: the mid is marked "mid" beside the price; a last trade is not', async () => {
    const r = runCli(watch, ['fx:EURUSD', 'crypto:BTCUSDT', '--duration', '2'], { env: env() })
    expect(await r.exit).toBe(0)
    const lines = r.stdout().split('\n')
    const fx = lines.filter((l) => l.startsWith('fx:EURUSD') && /\d/.test(l))
    expect(fx.length).toBeGreaterThan(0)
    for (const l of fx) expect(l).toMatch(/^fx:EURUSD\s+\d+\.\d+ mid\s/)
    const crypto = lines.filter((l) => l.startsWith('crypto:BTCUSDT'))
    expect(crypto.length).toBeGreaterThan(0)
    for (const l of crypto) expect(l).not.toMatch(/ mid\s/)
  })
})

describe('alerts on a symbol quoted with bid and ask only', () => {
  it('fire "EURUSD mid is above …" and `alerts list` says the rule watches the mid', async () => {
    const add = (args: string[]): Promise<number> =>
      runCli(alerts, ['add', ...args], { env: env() }).exit
    expect(await add(['fx:EURUSD', '--above', '0.5'])).toBe(0)
    expect(await add(['crypto:BTCUSDT', '--above', '1'])).toBe(0)
    const w = runCli(watch, ['fx:EURUSD', 'crypto:BTCUSDT', '--json', '--run-alerts'], {
      env: env(),
    })
    const fx = await w.waitFor((l) => l.type === 'alert' && l.symbol === 'EURUSD')
    const crypto = await w.waitFor((l) => l.type === 'alert' && l.symbol === 'BTCUSDT')
    w.abort()
    expect(await w.exit).toBe(0)
    expect(fx.message).toMatch(/^EURUSD mid is above 0\.5 \(\d+\.\d+\)$/)
    expect(fx.priceIs).toBe('mid')
    expect(crypto.message).toMatch(/^BTCUSDT is above 1 \([\d,.]+\)$/)
    expect(crypto.priceIs).toBe('last')

    const list = runCli(alerts, ['list'], { env: env() })
    expect(await list.exit).toBe(0)
    const text = list.stdout()
    expect(text).toMatch(
      /fx:EURUSD {2}above 0\.5 \(watches the mid of bid and ask: this symbol has no last price\)/,
    )
    expect(text).toMatch(/crypto:BTCUSDT {2}above 1 {2}once/)
    const json = runCli(alerts, ['list', '--json'], { env: env() })
    expect(await json.exit).toBe(0)
    const rules = json.lines().filter((l) => l.type === 'alert-rule')
    expect(rules.map((r) => [r.key, r.watches])).toEqual(
      expect.arrayContaining([
        ['fx:EURUSD', 'mid'],
        ['crypto:BTCUSDT', 'last'],
      ]),
    )
  })

  it('a webhook gets the mid in its text (`alerts run`, Slack format, a receiver on 127.0.0.1)', async () => {
    const slack = await shapeReceiver('slack')
    try {
      const cli = (args: string[]): Promise<number> => runCli(alerts, args, { env: env() }).exit
      expect(await cli(['add', 'fx:EURUSD', '--below', '5'])).toBe(0)
      expect(await cli(['webhook', 'add', '--format', 'slack', slack.url])).toBe(0)
      const r = runCli(alerts, ['run', '--json'], { env: env() })
      const fired = await r.waitFor((l) => l.type === 'alert')
      await expect.poll(() => slack.got.length, { timeout: 10_000 }).toBeGreaterThan(0)
      r.abort()
      expect(await r.exit).toBe(0)
      expect(fired.message).toMatch(/^EURUSD mid is below 5 \(\d+\.\d+\)$/)
      const text = (JSON.parse(slack.got[0]?.body ?? '{}') as { text?: string }).text ?? ''
      expect(text).toContain(fired.message as string)
      expect(slack.refused).toEqual([])
    } finally {
      slack.server.close()
    }
  })
})

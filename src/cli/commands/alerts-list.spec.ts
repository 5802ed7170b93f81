import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CandleBuilder } from '../../core/bars/candle-builder'
import { FakeClock } from '../../core/clock'
import { BarStore } from '../../core/persistence/bar-store'
import { barsDir } from '../../app/feed/bar-keeper'
import { openDataStores } from '../../core/persistence/stores'
import { alertRule } from '../../core/testing/alert-rule'
import type { AlertRuleState } from '../../shared/alerts/alert'
import { blankQuote } from '../../shared/quote'
import { SettingsSchema } from '../../shared/settings'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'
import { editRules, openAppAlertLoop } from '../../app/testing/alert-fixtures'
import { closedBars } from '../../core/testing/bars'

/** `tickdesk alerts list` over a data folder a host left behind (a real temp dir). */

let data: Awaited<ReturnType<typeof tempDataDir>>
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })

beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(() => data.remove())

/** Local HH:MM `minutes` from now. */
function localClock(minutes: number): string {
  const d = new Date(Date.now() + minutes * 60_000)
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
}

async function quietHours(start: string, end: string, enabled = true): Promise<void> {
  await openDataStores(data.dir).settings.save(
    SettingsSchema.parse({ quietHours: { enabled, start, end } }),
  )
}

async function list(...args: string[]): Promise<ReturnType<typeof runCli>> {
  const r = runCli(alerts, ['list', ...args], { env: env() })
  expect(await r.exit).toBe(0)
  return r
}

const state = (over: Partial<AlertRuleState>): AlertRuleState => ({
  ruleId: 'r1',
  status: 'armed',
  lastFiredAt: null,
  lastPrice: null,
  lastSeenAt: null,
  ...over,
})

describe('tickdesk alerts list', () => {
  it('says quiet hours are in force now, in words and in --json', async () => {
    const [start, end] = [localClock(-60), localClock(60)]
    await quietHours(start, end)
    expect((await list()).stdout()).toBe(`Quiet hours ${start}–${end}: in force now\nNo alerts.\n`)
    expect((await list('--json')).lines()).toEqual([
      { type: 'quiet-hours', enabled: true, start, end, inForce: true },
    ])
  })

  it('says quiet hours are set but not in force, or off', async () => {
    const [start, end] = [localClock(120), localClock(180)]
    await quietHours(start, end)
    expect((await list()).stdout()).toMatch(new RegExp(`^Quiet hours ${start}–${end}: not now\n`))
    expect((await list('--json')).lines()[0]).toMatchObject({ inForce: false })
    await quietHours(localClock(-60), localClock(60), false)
    expect((await list()).stdout()).toMatch(/^Quiet hours: off\n/)
  })

  it('shows each rule’s state as the host saved it: triggered, waiting for bars, disabled', async () => {
    const ema = alertRule(
      { kind: 'maCross', ma: 'ema', period: 20, interval: '15m', direction: 'any' },
      { id: 'r1', key: 'crypto:ETHUSDT' },
    )
    const fired = alertRule({ kind: 'above', price: 100 }, { id: 'r2' })
    const off = alertRule({ kind: 'below', price: 1 }, { id: 'r3', enabled: false })
    await openDataStores(data.dir).alerts.save({
      rules: [ema, fired, off],
      states: [
        state({ ruleId: 'r1', waitingBars: { have: 7, need: 20 } }),
        state({ ruleId: 'r2', status: 'triggered', lastFiredAt: 1 }),
      ],
    })
    const out = (await list()).stdout()
    expect(out).toContain(
      'r1  crypto:ETHUSDT  crosses the 20 EMA (15m)  once  waiting for bars (7 of 20)\n',
    )
    expect(out).toMatch(/r2 {2}\S+ {2}above 100 {2}once {2}triggered\n/)
    expect(out).toMatch(/r3 {2}\S+ {2}below 1 {2}once {2}disabled\n/)
    const rules = (await list('--json')).lines().filter((l) => l.type === 'alert-rule')
    expect(rules.map((l) => l.status)).toEqual([
      'waiting for bars (7 of 20)',
      'triggered',
      'disabled',
    ])
    expect(rules[0]).toMatchObject({ state: { waitingBars: { have: 7, need: 20 } } })
  })

  it('shows a snooze that ran out while nothing ran as armed', async () => {
    const rule = alertRule({ kind: 'above', price: 100 }, { id: 'r1', snoozedUntil: 1_000 })
    await openDataStores(data.dir).alerts.save({
      rules: [rule],
      states: [state({ status: 'snoozed' })],
    })
    expect((await list()).stdout()).toMatch(/r1 {2}\S+ {2}above 100 {2}once {2}armed\n/)
  })

  it('shows each webhook’s host, failure count and last error, never its URL’s secret part', async () => {
    await openDataStores(data.dir).webhooks.save([
      {
        id: 'w1',
        url: 'http://127.0.0.1:9/hook/T0-SECRET-PATH?token=SECRET-QUERY',
        addedAt: 0,
        failures: 3,
        lastError: 'HTTP 500',
        lastDeliveredAt: null,
        signed: false,
      },
    ])
    expect((await list()).stdout()).toContain(
      'webhook w1  json  http://127.0.0.1:9/…  3 failed attempts, last: HTTP 500\n',
    )
    const json = await list('--json')
    expect(json.lines().at(-1)).toEqual({
      type: 'webhook',
      id: 'w1',
      host: '127.0.0.1:9',
      kind: 'json',
      failures: 3,
      lastError: 'HTTP 500',
      lastDeliveredAt: null,
      signed: false,
    })
    expect((await list()).stdout() + json.stdout()).not.toMatch(/SECRET/)
  })
})

describe('tickdesk alerts list and a host whose bars are not built yet', () => {
  it('says "waiting for bars (n of 20)" for an EMA 20 on 15m the backfill could not fill, then armed', async () => {
    const stores = openDataStores(data.dir)
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 10, 1))
    const loop = await openAppAlertLoop(stores, clock)
    const candles = new CandleBuilder()
    candles.merge('crypto:BTCUSDT', closedBars(6, 100, clock.now()), '15m')
    const asked: unknown[] = []
    // A backfill that could not fill them (no budget, no klines): it is asked, nothing comes.
    loop.attachBars({ candles, backfillBars: (needs) => void asked.push(...needs) })
    let told = 0
    loop.onChange(() => void told++)
    await editRules(loop, stores, [
      alertRule(
        { kind: 'maCross', ma: 'ema', period: 20, interval: '15m', direction: 'any' },
        { id: 'ema' },
      ),
    ])
    expect(asked).toEqual([{ key: 'crypto:BTCUSDT', interval: '15m', count: 60 }])
    const tick = (last: number): void =>
      loop.evaluate({ ...blankQuote('crypto', 'BTCUSDT', clock.now(), 'stream'), last })
    tick(101)
    expect(told).toBe(1)
    await loop.close()
    expect((await list()).stdout()).toContain(
      'ema  crypto:BTCUSDT  crosses the 20 EMA (15m)  once  waiting for bars (7 of 20)\n',
    )

    candles.merge('crypto:BTCUSDT', closedBars(40, 100, clock.now()), '15m')
    clock.advance(5_000)
    // A save or a snapshot looks first; the next tick still tells the hosts.
    expect(loop.states()[0]?.waitingBars).toBeNull()
    tick(101)
    expect(told).toBe(2)
    await loop.close()
    expect((await list()).stdout()).toContain(
      'ema  crypto:BTCUSDT  crosses the 20 EMA (15m)  once  armed\n',
    )
  })
})

describe('tickdesk alerts list before any host evaluated a moving-average rule', () => {
  it('judges it on the bars the data folder holds: waiting with none, armed with enough', async () => {
    const add = runCli(
      alerts,
      ['add', 'crypto:BTCUSDT', '--cross-ema', '20', '--interval', '15m', '--json'],
      { env: env() },
    )
    expect(await add.exit).toBe(0)
    const id = add.lines()[0]!.id as string
    expect((await list()).stdout()).toContain(
      `${id}  crypto:BTCUSDT  crosses the 20 EMA (15m)  once  waiting for bars (1 of 20)\n`,
    )
    const candles = new CandleBuilder()
    candles.merge('crypto:BTCUSDT', closedBars(30, 1, Date.now()), '15m')
    await new BarStore(barsDir(data.dir, { demo: true, baseUrl: '' })).compact(candles)
    expect((await list()).stdout()).toContain(
      `${id}  crypto:BTCUSDT  crosses the 20 EMA (15m)  once  armed\n`,
    )
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import { blankQuote } from '../../shared/quote'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'

/** `tickdesk alerts add` beyond one symbol and one level, in a real temp data folder. */

let data: Awaited<ReturnType<typeof tempDataDir>>
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })

beforeEach(async () => {
  data = await tempDataDir()
  await openDataStores(data.dir).watchlists.save({
    watchlists: [{ id: 'L1', name: 'Macro', symbols: ['fx:EURUSD', 'crypto:BTCUSDT'] }],
    activeId: 'L1',
  })
})
afterEach(() => data.remove())

async function storedRules(): Promise<unknown[]> {
  return (await openDataStores(data.dir).alerts.load()).value.rules
}

describe('tickdesk alerts add --list', () => {
  it('stores one rule for the whole list, named by the list in `alerts list`', async () => {
    const add = runCli(alerts, ['add', '--list', 'macro', '--move', '3', '--minutes', '15'], {
      env: env(),
    })
    expect(await add.exit).toBe(0)
    expect(add.stdout()).toMatch(/^Added \S+: any on "Macro" moves 3% in 15 min\n$/)
    expect(await storedRules()).toEqual([
      expect.objectContaining({ key: 'list:L1', listId: 'L1', condition: expect.anything() }),
    ])
    const list = runCli(alerts, ['list'], { env: env() })
    expect(await list.exit).toBe(0)
    expect(list.stdout()).toMatch(/any on "Macro" {2}moves 3% in 15 min {2}once/)
  })

  it('takes a day change % for any symbol on the list', async () => {
    const add = runCli(alerts, ['add', '--list', 'L1', '--day-change=-4', '--json'], {
      env: env(),
    })
    expect(await add.exit).toBe(0)
    expect(add.lines()[0]).toMatchObject({ listId: 'L1', condition: { pct: -4 } })
  })

  it('takes a spread in bp for any symbol on the list', async () => {
    const add = runCli(alerts, ['add', '--list', 'Macro', '--spread', '15bp', '--json'], {
      env: env(),
    })
    expect(await add.exit).toBe(0)
    expect(add.lines()[0]).toMatchObject({
      key: 'list:L1',
      listId: 'L1',
      condition: { kind: 'spread', above: 15, unit: 'bps' },
    })
  })

  it.each([
    [['add', '--list', 'Nope', '--move', '3', '--minutes', '15'], /no watchlist "Nope"/],
    [['add', '--list', 'Macro', '--above', '100'], /cannot apply to a whole list/],
    [['add', '--list', 'Macro', '--spread', '0.5'], /a list spread alert is in bp of the mid/],
    [['add', 'fx:EURUSD', '--list', 'Macro', '--move', '3', '--minutes', '15'], /Usage/],
  ])('refuses %j with a clear message and stores nothing', async (args, message) => {
    const r = runCli(alerts, args, { env: env() })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(message)
    expect(await storedRules()).toEqual([])
  })
})

describe('tickdesk alerts add --volume', () => {
  it('stores volume above N in M minutes for crypto, quietly', async () => {
    const add = runCli(alerts, ['add', 'crypto:BTCUSDT', '--volume', '250', '--minutes', '5'], {
      env: env(),
    })
    expect(await add.exit).toBe(0)
    expect(add.stdout()).toMatch(/crypto:BTCUSDT volume ≥ 250 in 5 min/)
    expect(add.stderr()).toBe('')
  })

  it('says when a market may carry no volume, and refuses a symbol whose quotes had none', async () => {
    const fx = runCli(alerts, ['add', 'fx:EURUSD', '--volume', '10', '--minutes', '5'], {
      env: env(),
    })
    expect(await fx.exit).toBe(0)
    expect(fx.stderr()).toMatch(/note: The service may send no volume for fx quotes/)
    await openDataStores(data.dir)
      .quotesOf({ demo: true, baseUrl: '' })
      .save([{ ...blankQuote('index', 'SPX', 1, 'poll'), last: 5000, volume: null }])
    const spx = runCli(alerts, ['add', 'index:SPX', '--volume', '10', '--minutes', '5'], {
      env: env(),
    })
    expect(await spx.exit).toBe(2)
    expect(spx.stderr()).toMatch(/SPX has no volume from the service/)
    expect(await storedRules()).toHaveLength(1)
  })
})

describe('tickdesk alerts add --cross-ema / --cross-sma', () => {
  it('stores price crosses the 20 EMA on 15m bars', async () => {
    const add = runCli(
      alerts,
      ['add', 'futures:ES1!', '--cross-ema', '20', '--interval', '15m', '--direction', 'up'],
      { env: env() },
    )
    expect(await add.exit).toBe(0)
    expect(add.stdout()).toMatch(/futures:ES1! crosses above the 20 EMA \(15m\)/)
  })

  it.each([
    [['--cross-sma', '2.5', '--interval', '15m'], /whole number of bars/],
    [['--cross-sma', '0', '--interval', '15m'], /whole number of bars of at least 1/],
    [['--cross-ema', '20'], /needs --interval/],
    [['--cross-ema', '20', '--interval', '7m'], /one of 1m, 5m, 15m/],
    [['--cross-sma', '600', '--interval', '1h'], /at most 500 bars/],
  ])('refuses %j with a clear message and stores nothing', async (flags, message) => {
    const r = runCli(alerts, ['add', 'futures:ES1!', ...flags], { env: env() })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(message)
    expect(await storedRules()).toEqual([])
  })
})

describe('tickdesk alerts: bad input stores nothing', () => {
  it.each([
    [['add', 'crypto:NOPE123', '--above', '1'], /the service refuses crypto:NOPE123/],
    [['add', 'crypto:BTCUSDT', '--above', 'lots'], /--above needs a number/],
    [['add', 'crypto:BTCUSDT', '--enter', '110:100'], /lower bound must come first/],
    [['add', 'futures:ES1!', '--cross-ema', 'x', '--interval', '1h'], /whole number of bars/],
    [['add', '--list', 'Nope', '--day-change', '5'], /no watchlist "Nope"/],
  ])('%j', async (args, message) => {
    const r = runCli(alerts, args, { env: env() })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(message)
    expect(r.stdout()).toBe('')
    expect(await storedRules()).toEqual([])
  })

  it('refuses a webhook URL that is not http(s)', async () => {
    const r = runCli(alerts, ['webhook', 'add', 'ftp://example.test/hook'], { env: env() })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(/must start with http:\/\/ or https:\/\//)
    expect((await openDataStores(data.dir).webhooks.load()).value).toEqual([])
  })
})

describe('tickdesk alerts add --spread', () => {
  it('stores a spread in bps of the mid with a bp suffix, and in price without one', async () => {
    const bps = runCli(alerts, ['add', 'crypto:BTCUSDT', '--spread', '12bp'], { env: env() })
    expect(await bps.exit).toBe(0)
    expect(bps.stdout()).toMatch(/crypto:BTCUSDT spread ≥ 12 bp/)
    const price = runCli(alerts, ['add', 'fx:EURUSD', '--spread', '0.0002', '--json'], {
      env: env(),
    })
    expect(await price.exit).toBe(0)
    expect(price.lines()[0]).toMatchObject({
      condition: { kind: 'spread', above: 0.0002, unit: 'price' },
    })
    expect(await storedRules()).toEqual([
      expect.objectContaining({ condition: { kind: 'spread', above: 12, unit: 'bps' } }),
      expect.objectContaining({ condition: { kind: 'spread', above: 0.0002, unit: 'price' } }),
    ])
  })

  it.each([['0bp'], ['wide'], ['-3'], ['12 pips']])(
    'refuses --spread %s with a clear message and stores nothing',
    async (arg) => {
      const r = runCli(alerts, ['add', 'crypto:BTCUSDT', `--spread=${arg}`], { env: env() })
      expect(await r.exit).toBe(2)
      expect(r.stderr()).toMatch(/--spread needs a spread above zero: 12bp/)
      expect(await storedRules()).toEqual([])
    },
  )
})

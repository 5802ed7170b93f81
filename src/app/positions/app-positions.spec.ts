import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertRule } from '../../shared/alerts/alert'
import type { BridgeEvent, Snapshot } from '../../shared/bridge'
import type { BudgetPreview } from '../../shared/budget'
import { sessionAt } from '../../shared/markets/market-sessions'
import type { Lot, PositionsView } from '../../shared/positions/position'
import { fxQuotesOf, positionReport } from '../../shared/positions/position-report'
import { startDemoService } from '../../sim'
import { openDataStores } from '../../core/persistence/stores'
import { createAppService, type AppService } from '../app-service'
import { addLot } from './position-book'
import { memorySecretStore } from '../keys/memory-secret-store'

let app: AppService | null = null
afterEach(async () => {
  await app?.close()
  app = null
})

async function start(dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-book-'))): Promise<AppService> {
  app = await createAppService({
    dataDir,
    env: {},
    secretStore: memorySecretStore(),
    demo: () => startDemoService({ seed: 5, tickIntervalMs: 100 }),
  })
  return app
}

async function invoke<T>(a: AppService, command: string, params: unknown): Promise<T> {
  const outcome = await a.invoke(command, params)
  if (!outcome.ok) throw new Error(`${command} failed: ${JSON.stringify(outcome.error)}`)
  return outcome.result as T
}

async function refusal(a: AppService, command: string, params: unknown): Promise<string> {
  const outcome = await a.invoke(command, params)
  if (outcome.ok) throw new Error(`${command} ${JSON.stringify(params)} was accepted`)
  return outcome.error.code
}

describe('the trader’s book over the bridge', () => {
  it('adds a lot, watches the FX pair that converts it, and the renderer’s math gives P&L in HKD and USD', async () => {
    const a = await start()
    const events: BridgeEvent[] = []
    a.subscribe((e) => events.push(e))
    const before = await invoke<BudgetPreview>(a, 'previewBudget', { id: 'macro' })
    const streamUsedBefore = before.streamUsed
    const lot = await invoke<Lot>(a, 'addLot', { key: 'hk:00700', qty: 200, cost: 350, fee: 30 })
    expect(lot).toMatchObject({ key: 'hk:00700', qty: 200, cost: 350, fee: 30, date: null })
    const told = events.find((e) => e.type === 'positions')
    expect(told?.type === 'positions' && told.positions).toMatchObject({
      lots: [lot],
      baseCurrency: 'USD',
      quoteCurrencies: { 'hk:00700': 'HKD' },
      fxKeys: ['fx:USDHKD'],
    })
    // fx:USDHKD is on no list: it is watched for the lot, so its quote reaches the renderer.
    await expect
      .poll(() => a.feed.engine.quotes.get('fx:USDHKD')?.last ?? null, { timeout: 10_000 })
      .not.toBeNull()
    await expect
      .poll(() => a.feed.engine.quotes.get('hk:00700')?.last ?? null, { timeout: 10_000 })
      .not.toBeNull()

    const snap = await invoke<Snapshot>(a, 'getSnapshot', {})
    const view = snap.positions as PositionsView
    const prices = new Map(snap.quotes.map((q) => [q.key, q]))
    const report = positionReport(
      view,
      prices,
      fxQuotesOf(snap.quotes),
      (k) => view.quoteCurrencies[k] ?? null,
      a.now(),
    )
    const last = prices.get('hk:00700')?.last as number
    const usdhkd = prices.get('fx:USDHKD')?.last as number
    const [row] = report.rows
    expect(row).toMatchObject({ key: 'hk:00700', qty: 200, fees: 30, currency: 'HKD' })
    expect(row?.pnl).toBeCloseTo(200 * (last - 350), 9)
    expect(row?.base).toMatchObject({ converted: true, via: ['fx:USDHKD'] })
    expect(report.totals.pnl).toBeCloseTo((200 * (last - 350)) / usdhkd, 9)
    expect(report.totals.unconverted).toEqual([])
    // The budget line counts the conversion pair: on Pro it takes a free stream slot (on a
    // smaller plan it is polled once a minute: fxPairs, see budget-preview.spec).
    const budget = await invoke<BudgetPreview>(a, 'previewBudget', { id: 'macro' })
    expect(budget).toMatchObject({ fxPairs: 0, fxEverySec: 60 })
    expect(budget.streamUsed).toBe(streamUsedBefore + 1)
  })

  it('refuses a bad lot with a reason and stores nothing', async () => {
    const a = await start()
    expect(await refusal(a, 'addLot', { key: 'hk:00700', qty: 'ten', cost: 1 })).toBe(
      'INVALID_INPUT',
    )
    expect(await refusal(a, 'addLot', { key: 'hk:00700', qty: 1, cost: -1 })).toBe('INVALID_INPUT')
    expect(await refusal(a, 'addLot', { key: 'hk:99999', qty: 1, cost: 1 })).toBe('UNKNOWN_SYMBOL')
    expect(await refusal(a, 'removeLot', { id: 'nope' })).toBe('NOT_FOUND')
    expect(await refusal(a, 'setBaseCurrency', { currency: 'dollars!' })).toBe('INVALID_INPUT')
    expect(a.positions.lots).toEqual([])
  })

  it('watches the stablecoin quote that puts a USDT lot in USD, and keeps the trader’s peg across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-book-'))
    const a = await start(dir)
    await invoke<Lot>(a, 'addLot', { key: 'crypto:ETHUSDT', qty: 2, cost: 3000 })
    const snap = await invoke<Snapshot>(a, 'getSnapshot', {})
    expect(snap.positions).toMatchObject({
      quoteCurrencies: { 'crypto:ETHUSDT': 'USDT' },
      fxKeys: ['crypto:USDTUSD'],
      pegStablecoins: false,
    })
    await invoke(a, 'setStablecoinPeg', { on: true })
    await a.close()
    const b = await start(dir)
    expect((await invoke<Snapshot>(b, 'getSnapshot', {})).positions?.pegStablecoins).toBe(true)
  })

  it('keeps lots, base currency and overrides across a restart, in positions.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-book-'))
    const a = await start(dir)
    const long = await invoke<Lot>(a, 'addLot', { key: 'cn:600519', qty: 10, cost: 1500 })
    const short = await invoke<Lot>(a, 'addLot', { key: 'crypto:BTCUSDT', qty: -0.1, cost: 70_000 })
    await invoke(a, 'removeLot', { id: long.id })
    await invoke(a, 'setBaseCurrency', { currency: 'hkd' })
    await invoke(a, 'setQuoteCurrency', { key: 'crypto:BTCUSDT', currency: 'USD' })
    await a.close()
    const onDisk = JSON.parse(readFileSync(join(dir, 'positions.json'), 'utf8')) as {
      data: unknown
    }
    expect(onDisk.data).toMatchObject({ lots: [short], baseCurrency: 'HKD' })
    const b = await start(dir)
    const snap = await invoke<Snapshot>(b, 'getSnapshot', {})
    expect(snap.positions).toMatchObject({
      lots: [short],
      baseCurrency: 'HKD',
      currencies: { 'crypto:BTCUSDT': 'USD' },
      quoteCurrencies: { 'crypto:BTCUSDT': 'USD' },
      fxKeys: ['fx:USDHKD'],
    })
  })

  it('takes in lots and alert rules the CLI saved while the app runs, and its next save keeps them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-book-'))
    const a = await start(dir)
    const events: BridgeEvent[] = []
    a.subscribe((e) => events.push(e))
    const mine = await invoke<Lot>(a, 'addLot', { key: 'cn:600519', qty: 10, cost: 1500 })
    // `tickdesk positions add` and `tickdesk alerts add`: their own stores on the same files.
    const cli = openDataStores(dir)
    const { result: fromCli } = await addLot(
      cli.positions,
      { key: 'hk:00700', qty: 100, cost: 350, date: null, fee: 0 },
      'cli-lot',
      a.now(),
    )
    const own = await invoke<AlertRule>(a, 'addAlert', {
      key: 'crypto:BTCUSDT',
      condition: { kind: 'above', price: 1e9 },
    })
    const alerts = (await cli.alerts.load()).value
    await cli.alerts.save({ ...alerts, rules: [...alerts.rules, { ...own, id: 'cli-rule' }] })
    await a.checkOutsideEdits()
    expect(a.positions.lots).toEqual([mine, fromCli])
    expect(a.rules.map((r) => r.id)).toEqual([own.id, 'cli-rule'])
    const told = events.filter((e) => e.type === 'positions').at(-1)
    expect(told?.type === 'positions' && told.positions.lots.map((l) => l.id)).toEqual([
      mine.id,
      'cli-lot',
    ])
    // The app's own next change is saved on top of the CLI's lot, not over it.
    await invoke<Lot>(a, 'addLot', { key: 'crypto:BTCUSDT', qty: 1, cost: 60_000 })
    await a.close()
    const onDisk = JSON.parse(readFileSync(join(dir, 'positions.json'), 'utf8')) as {
      data: { lots: Lot[] }
    }
    expect(onDisk.data.lots.map((l) => l.key)).toEqual(['cn:600519', 'hk:00700', 'crypto:BTCUSDT'])
  })

  it('exports a list with the lots on its symbols and imports them into the book', async () => {
    const a = await start()
    await invoke(a, 'addLot', { key: 'hk:00700', qty: 200, cost: 350, fee: 30, date: '2026-03-10' })
    await invoke(a, 'addLot', { key: 'crypto:BTCUSDT', qty: 1, cost: 60_000 })
    const csv = await invoke<string>(a, 'exportWatchlist', { id: 'macro', format: 'csv' })
    expect(csv.split('\n')[0]).toBe('watchlist,symbol,qty,cost,date,fee')
    expect(csv).toContain('Macro,hk:00700,200,350,2026-03-10,30')
    expect(csv).not.toContain('BTCUSDT')
    await a.close()
    const b = await start()
    const [imported] = await invoke<Array<{ symbols: string[] }>>(b, 'importWatchlists', {
      format: 'csv',
      text: csv,
    })
    expect(imported?.symbols).toContain('hk:00700')
    expect(b.positions.lots).toEqual([
      expect.objectContaining({
        key: 'hk:00700',
        qty: 200,
        cost: 350,
        fee: 30,
        date: '2026-03-10',
      }),
    ])
    await b.close()
  })

  it('gives each watched symbol its market session in the snapshot', async () => {
    const a = await start()
    const snap = await invoke<Snapshot>(a, 'getSnapshot', {})
    const sessions = snap.sessions ?? {}
    expect(sessions['crypto:BTCUSDT']).toMatchObject({ state: 'open', nextChange: null })
    const now = a.now()
    const cn = sessions['cn:600519']
    expect(cn?.timetable).toBe('sse')
    expect([
      sessionAt('cn', '600519', now - 1_000).state,
      sessionAt('cn', '600519', now).state,
    ]).toContain(cn?.state)
  })
})

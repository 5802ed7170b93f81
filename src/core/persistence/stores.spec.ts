import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { AlertEngine } from '../alerts/alert-engine'
import { QuoteStore } from '../quotes/quote-store'
import { defaultWatchlists, openDataStores } from './stores'
import { parseSymbolKey } from '../../shared/markets/market'
import { DEFAULT_GRID } from '../../shared/grid'
import { blankQuote } from '../../shared/quote'
import { DEFAULT_LAYOUT, DEFAULT_STRIP, type Settings } from '../../shared/settings'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-data-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const DEMO = { demo: true, baseUrl: '' }

describe('openDataStores', () => {
  it('starts with default settings and the demo watchlists', async () => {
    const stores = openDataStores(dir)
    const settings = await stores.settings.load()
    expect(settings.problem).toBeNull()
    expect(settings.value).toMatchObject({ plan: 'free', theme: 'system', alertsPaused: false })
    const lists = (await stores.watchlists.load()).value
    expect(lists.activeId).toBe('crypto')
    expect(lists.watchlists.map((w) => w.name)).toEqual(['Crypto', 'Macro'])
    expect(lists.watchlists[1]?.symbols).toContain('futures:ES1!')
  })

  it('uses only well-formed symbol keys in the demo watchlists', () => {
    for (const list of defaultWatchlists().watchlists) {
      for (const key of list.symbols) expect(parseSymbolKey(key), key).not.toBeNull()
    }
  })

  it('round-trips a session: alerts with states, history, quotes and bars', async () => {
    const clock = new FakeClock()
    const engine = new AlertEngine({ clock, newId: () => 'a1' })
    const rule = {
      id: 'r1',
      key: 'crypto:BTCUSDT',
      condition: { kind: 'above' as const, price: 100 },
      repeat: 'once' as const,
      hysteresisPct: 0.2,
      cooldownSec: 60,
      expiresAt: null,
      note: '',
      createdAt: 0,
      enabled: true,
    }
    engine.setRules([rule])
    const quotes = new QuoteStore(clock)
    const q = quotes.apply({
      market: 'crypto',
      symbol: 'BTCUSDT',
      fields: { last: 101, prevClose: 90 },
      ts: null,
      source: 'stream',
    })
    engine.evaluate(q)

    const stores = openDataStores(dir, { clock })
    await stores.alerts.save({ rules: [rule], states: engine.states() })
    await stores.alertHistory.save(engine.history())
    await stores.quotesOf(DEMO).save(quotes.all())

    const again = openDataStores(dir, { clock })
    const alerts = (await again.alerts.load()).value
    expect(alerts.states[0]).toMatchObject({ ruleId: 'r1', status: 'triggered', lastPrice: 101 })
    expect((await again.alertHistory.load()).value[0]?.message).toBe('BTCUSDT is above 100 (101)')
    const restored = new QuoteStore(clock)
    restored.seed((await again.quotesOf(DEMO).load()).value)
    expect(restored.get('crypto:BTCUSDT')).toMatchObject({
      last: 101,
      source: 'cache',
      stale: true,
    })
  })

  it('never writes the API key to the data dir, even when a caller slips it into settings', async () => {
    const apiKey = 'tdk_live_5f3a9c1e7b2d4f60a8e1'
    const stores = openDataStores(dir)
    const settings = (await stores.settings.load()).value
    for (let i = 0; i < 3; i++) {
      const sneaky = { ...settings, baseUrl: `https://md${i}.example.com`, apiKey } as Settings
      await stores.settings.save(sneaky)
      await stores.watchlists.save(defaultWatchlists())
      await stores.alerts.save({ rules: [], states: [] })
      await stores.alertHistory.save([])
      await stores.quotesOf(DEMO).save([])
    }
    const files = await readdir(dir)
    expect(files).toContain('settings.bak.json')
    for (const name of files) {
      expect(await readFile(join(dir, name), 'utf8'), name).not.toContain(apiKey)
    }
    expect((await stores.settings.load()).value.baseUrl).toBe('https://md2.example.com')
  })

  it('migrates a v1 settings file: what the trader set stays, strip and layout get defaults', async () => {
    const v1 = { theme: 'dark', plan: 'growth', pinned: ['fx:EURUSD'], closeToTray: false }
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ version: 1, data: v1 }))
    const loaded = await openDataStores(dir).settings.load()
    expect(loaded.problem).toBeNull()
    expect(loaded.value).toMatchObject(v1)
    expect(loaded.value.strip).toEqual(DEFAULT_STRIP)
    expect(loaded.value.layout).toEqual(DEFAULT_LAYOUT)
  })

  it('keeps strip and layout preferences across a restart in a v3 file', async () => {
    const stores = openDataStores(dir)
    const settings = (await stores.settings.load()).value
    const strip = { open: true, watchlistId: 'macro', speed: 'fast', motion: 'page' } as const
    await stores.settings.save({
      ...settings,
      strip,
      layout: { alertsOpen: true, detailSize: 0.6 },
    })
    const text = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))
    expect(text.version).toBe(3)
    const again = (await openDataStores(dir).settings.load()).value
    expect(again.strip).toEqual(strip)
    expect(again.layout).toEqual({ alertsOpen: true, detailSize: 0.6 })
  })

  it('migrates a v2 settings file: strip and layout stay, the grid gets its defaults', async () => {
    const v2 = {
      theme: 'dark',
      strip: { open: true, watchlistId: 'macro', speed: 'fast', motion: 'page' },
      layout: { alertsOpen: true, detailSize: 0.6 },
    }
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ version: 2, data: v2 }))
    const loaded = await openDataStores(dir).settings.load()
    expect(loaded.problem).toBeNull()
    expect(loaded.value).toMatchObject(v2)
    expect(loaded.value.grid).toEqual(DEFAULT_GRID)
  })

  it('keeps the grid (columns, density, each list’s sort) across a restart', async () => {
    const stores = openDataStores(dir)
    const settings = (await stores.settings.load()).value
    const grid = {
      columns: ['trades', 'last', 'bidSize'],
      density: 'compact',
      sorts: { macro: { column: 'changePercent', direction: 'descending' } },
    } as const
    await stores.settings.save({ ...settings, grid: { ...grid, columns: [...grid.columns] } })
    expect((await openDataStores(dir).settings.load()).value.grid).toEqual(grid)
  })

  it('refuses to save a quotes cache holding a damaged quote, and keeps the last one', async () => {
    const stores = openDataStores(dir)
    const good = { ...blankQuote('crypto', 'ETHUSDT', 1, 'stream'), last: 3000 }
    await stores.quotesOf(DEMO).save([good])
    const error = await stores
      .quotesOf(DEMO)
      .save([good, { ...good, key: 'crypto:BTCUSDT', symbol: 'BTCUSDT', last: NaN }])
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/1\.last/),
    })
    expect((await openDataStores(dir).quotesOf(DEMO).load()).value).toEqual([good])
  })

  it('reads a v1 quotes cache (no trade count) instead of moving it aside', async () => {
    const { trades, ...v1 } = { ...blankQuote('crypto', 'ETHUSDT', 1, 'stream'), last: 3000 }
    expect(trades).toBeNull()
    await writeFile(join(dir, 'quotes-cache.demo.json'), JSON.stringify({ version: 1, data: [v1] }))
    const loaded = await openDataStores(dir).quotesOf(DEMO).load()
    expect(loaded.problem).toBeNull()
    expect(loaded.value).toEqual([{ ...v1, trades: null }])
  })

  it('keeps lots, base currency and currency overrides in positions.json next to the watchlists', async () => {
    const stores = openDataStores(dir)
    expect((await stores.positions.load()).value).toEqual({
      lots: [],
      baseCurrency: 'USD',
      currencies: {},
      pegStablecoins: false,
    })
    const lot = {
      id: 'a1',
      key: 'hk:00700',
      qty: -100,
      cost: 380,
      date: '2026-03-10',
      fee: 12.5,
      addedAt: 1,
    }
    await stores.positions.save({
      lots: [lot],
      baseCurrency: 'HKD',
      currencies: { 'hk:00700': 'CNY' },
      pegStablecoins: false,
    })
    expect((await readdir(dir)).filter((f) => f.startsWith('positions'))).toEqual([
      'positions.json',
    ])
    const again = await openDataStores(dir).positions.load()
    expect(again.problem).toBeNull()
    expect(again.value).toEqual({
      lots: [lot],
      baseCurrency: 'HKD',
      currencies: { 'hk:00700': 'CNY' },
      pegStablecoins: false,
    })
  })
})

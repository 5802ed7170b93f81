import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startDemoService, startSimulator, type SimServer } from '../../sim'
import type { BudgetPreview } from '../../shared/budget'
import type { BridgeEvent } from '../../shared/bridge'
import type { AddReport, InstrumentMatch } from '../../shared/markets/instrument'
import { createAppService, type AppService } from '../app-service'
import { memorySecretStore } from '../keys/memory-secret-store'
import { okResult } from '../testing/app-on-sim'
import { clockAt, WEEKDAY_AFTERNOON_UTC } from '../../util/testing/clock-at'

let app: AppService | null = null
let sim: SimServer | null = null
afterEach(async () => {
  await app?.close()
  await sim?.close()
  app = null
  sim = null
})

/** The app on a simulator key of the given plan, as `tickdesk web` runs it against a service. */
async function start(
  plan: 'free' | 'pro',
  key: (s: SimServer) => string = (s) => s.keys[plan],
): Promise<AppService> {
  sim = await startSimulator({ seed: 4, tickIntervalMs: 500 })
  app = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-desk-')),
    env: { TICKDESK_BASE_URL: sim.url },
    secretStore: memorySecretStore(key(sim)),
    demo: () => startDemoService(),
    // What a list costs depends on which markets trade now: the same answer on any day.
    clock: clockAt(WEEKDAY_AFTERNOON_UTC),
  })
  if (plan !== 'free') await app.invoke('updateSettings', { plan })
  return app
}

const many = (market: string, n: number, suffix = ''): string[] =>
  Array.from({ length: n }, (_, i) => `${market}:T${String(i).padStart(3, '0')}${suffix}`)
/** Seven calls a polling round: 210 crypto (5 calls, 10 streamed), 50 FX, 50 perpetuals. */
const COSTLY = [
  ...many('crypto', 210, 'USDT'),
  ...many('fx', 50),
  ...many('usdt-futures', 50, 'USDT'),
]

describe('search and adding through the bridge commands', () => {
  it('finds instruments by name and code across markets', async () => {
    const a = await start('pro')
    const gold = await okResult<InstrumentMatch[]>(a.invoke('searchInstruments', { query: 'gold' }))
    expect(gold[0]).toMatchObject({
      key: 'commodity:XAUUSD',
      name: 'Gold spot',
      market: 'commodity',
    })
    const tencent = await okResult<InstrumentMatch[]>(
      a.invoke('searchInstruments', { query: 'tencent' }),
    )
    expect(tencent[0]?.key).toBe('hk:00700')
    const spx = await okResult<InstrumentMatch[]>(a.invoke('searchInstruments', { query: 's&p' }))
    expect(spx.map((m) => m.key)).toContain('index:SPX')
  })

  it('adds a pasted list and reports each entry; the list change reaches subscribers once', async () => {
    const a = await start('pro')
    const events: BridgeEvent[] = []
    a.subscribe((e) => e.type === 'watchlists' && events.push(e))
    const report = await okResult<AddReport>(
      a.invoke('addSymbols', { id: 'macro', inputs: ['hk:09988', '600036', 'fx:EURUSD', 'nope'] }),
    )
    expect(report.added.map((x) => x.key)).toEqual(['hk:09988', 'cn:600036'])
    expect(report.present.map((x) => x.key)).toEqual(['fx:EURUSD'])
    expect(report.rejected.map((x) => x.input)).toEqual(['nope'])
    expect(events).toHaveLength(1)
  })

  it('refuses one unknown symbol with its code, and keeps the list', async () => {
    const a = await start('pro')
    const before = JSON.stringify(a.lists)
    const report = await okResult<AddReport>(
      a.invoke('addSymbols', { id: 'crypto', inputs: ['crypto:NOSUCHCOIN'] }),
    )
    expect(report.rejected).toMatchObject([{ code: 'UNKNOWN_SYMBOL' }])
    expect(JSON.stringify(a.lists)).toBe(before)
  })

  it('changes only the strip and layout fields a patch names: quick patches never undo each other', async () => {
    const a = await start('pro')
    await Promise.all([
      a.invoke('updateSettings', { strip: { motion: 'page' } }),
      a.invoke('updateSettings', { strip: { speed: 'fast' } }),
      a.invoke('updateSettings', { layout: { alertsOpen: true } }),
    ])
    expect(a.settings.strip).toEqual({
      open: false,
      watchlistId: null,
      speed: 'fast',
      motion: 'page',
    })
    expect(a.settings.layout.alertsOpen).toBe(true)
    const bad = await a.invoke('updateSettings', { strip: { speed: 'warp' } })
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
  })

  it('asks the main window to open a symbol (the strip click)', async () => {
    const a = await start('pro')
    const events: BridgeEvent[] = []
    a.subscribe((e) => events.push(e))
    await okResult(a.invoke('openSymbol', { key: 'hk:00700' }))
    expect(events).toContainEqual({ type: 'openSymbol', key: 'hk:00700' })
  })
})

describe('plan-budget preview', () => {
  it('counts streamed and polled symbols of a list on Free, and changes when a symbol is added', async () => {
    const a = await start('free')
    const list = await okResult<{ id: string }>(a.invoke('createWatchlist', { name: 'Many' }))
    const inputs = [
      'crypto:BTCUSDT',
      'crypto:ETHUSDT',
      'crypto:SOLUSDT',
      'crypto:XRPUSDT',
      'crypto:BNBUSDT',
    ]
    await okResult(
      a.invoke('addSymbols', {
        id: list.id,
        inputs: [
          ...inputs,
          'fx:EURUSD',
          'fx:USDJPY',
          'hk:00700',
          'cn:600519',
          'index:SPX',
          'index:NDX',
          'index:DJI',
        ],
      }),
    )
    const before = await okResult<BudgetPreview>(a.invoke('previewBudget', { id: list.id }))
    // A polled symbol whose market is closed at this hour (the app runs on the wall clock) is
    // counted apart as quiet: polled and quiet together are what the stream leaves over.
    const offStream = (p: BudgetPreview): number => p.polled + (p.quiet ?? 0)
    expect(before).toMatchObject({
      plan: 'free',
      symbols: 12,
      streamed: 10,
      perMinute: 27,
      streamCap: 10,
    })
    expect(offStream(before)).toBe(2)
    if (before.polled > 0) {
      expect(before.pollEverySec).toBeGreaterThanOrEqual(5)
      expect(before.pollEverySec).toBeLessThanOrEqual(15)
    } else expect(before.pollEverySec).toBeNull()
    await okResult(a.invoke('addSymbols', { id: list.id, inputs: ['agri:ZC1!'] }))
    const after = await okResult<BudgetPreview>(a.invoke('previewBudget', { id: list.id }))
    // Agriculture rides on the multi-market quote: one more symbol polled, no extra call.
    expect(after).toMatchObject({ symbols: 13, streamed: 10 })
    expect(offStream(after)).toBe(offStream(before) + 1)
    // No extra call a round: agriculture rides on the multi-market quote (or is quiet, closed).
    if (before.polled > 0) expect(after.pollEverySec).toBe(before.pollEverySec)
    expect(after.why).toContain('1 agri polled: agriculture is served over REST only')
  })

  it('warns before an add would push polling past 15 s, and says nothing for a cheap add', async () => {
    const a = await start('free')
    const cheap = await okResult<BudgetPreview>(
      a.invoke('previewBudget', { id: 'crypto', add: ['crypto:SOLUSDT'] }),
    )
    expect(cheap.warnings).toEqual([])
    const costly = await okResult<BudgetPreview>(
      a.invoke('previewBudget', { id: 'crypto', add: COSTLY }),
    )
    expect(costly.pollEverySec).toBeGreaterThan(15)
    expect(costly.warnings.map((w) => w.code)).toEqual(['POLL_SLOW'])
    expect(costly.warnings[0]?.message).toMatch(
      new RegExp(`Adding ${COSTLY.length} symbols would slow polling to every ~\\d+ s`),
    )
    expect(a.lists.watchlists.find((w) => w.id === 'crypto')?.symbols).not.toContain(COSTLY[0])
  })

  it('follows the plan: the same list costs less on a larger plan', async () => {
    const a = await start('free')
    const free = await okResult<BudgetPreview>(
      a.invoke('previewBudget', { id: 'crypto', add: COSTLY }),
    )
    await okResult(a.invoke('updateSettings', { plan: 'pro' }))
    const pro = await okResult<BudgetPreview>(
      a.invoke('previewBudget', { id: 'crypto', add: COSTLY }),
    )
    expect(pro.plan).toBe('pro')
    expect(pro.perMinute).toBeGreaterThan(free.perMinute)
    expect(pro.pollEverySec as number).toBeLessThan(free.pollEverySec as number)
  })

  it('warns that the key lacks a market once the service refused it', async () => {
    const a = await start('pro', (s) => s.keys.cryptoOnly)
    await expect
      .poll(() => a.feed.engine.symbolStatuses().some((s) => s.code === 'MARKET_NOT_ENABLED'), {
        timeout: 15_000,
      })
      .toBe(true)
    const preview = await okResult<BudgetPreview>(
      a.invoke('previewBudget', { id: 'crypto', add: ['fx:GBPUSD'] }),
    )
    expect(preview.warnings.map((w) => w.code)).toContain('MARKET_NOT_IN_PLAN')
    expect(preview.warnings.find((w) => w.code === 'MARKET_NOT_IN_PLAN')?.message).toMatch(
      /lacks fx/,
    )
    const macro = await okResult<BudgetPreview>(a.invoke('previewBudget', { id: 'macro' }))
    expect(macro.blocked).toBeGreaterThan(0)
  })
})

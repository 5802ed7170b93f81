import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BridgeEvent, Snapshot } from '../shared/bridge'
import { decodeQuoteFrame } from '../shared/quote-frame'
import { createAppService, type AppService } from './app-service'
import { memorySecretStore } from './keys/memory-secret-store'
import { startDemoService, startSimulator } from '../sim'
import { okResult } from './testing/app-on-sim'

let app: AppService | null = null

afterEach(async () => {
  await app?.close()
  app = null
})

async function start(
  dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-')),
  env: NodeJS.ProcessEnv = {},
): Promise<AppService> {
  app = await createAppService({
    dataDir,
    env,
    secretStore: memorySecretStore(),
    demo: () => startDemoService({ seed: 9, tickIntervalMs: 100 }),
  })
  return app
}

describe('application service', () => {
  it('starts in demo mode on the embedded simulator with the default watchlists ticking', async () => {
    const a = await start()
    const snap = await okResult<Snapshot>(a.invoke('getSnapshot', {}))
    expect(snap.status.demo).toBe(true)
    expect(snap.watchlists.map((w) => w.name)).toEqual(['Crypto', 'Macro'])
    expect(snap.keyInfo).toMatchObject({ hasKey: false, storage: 'none' })
    const batches: BridgeEvent[] = []
    a.subscribe((e) => e.type === 'quotes' && batches.push(e))
    await expect.poll(() => batches.length, { timeout: 10_000 }).toBeGreaterThan(2)
    const fields = batches.flatMap((b) => (b.type === 'quotes' ? decodeQuoteFrame(b.frame) : []))
    expect(fields.some((p) => p.key === 'crypto:BTCUSDT' && typeof p.last === 'number')).toBe(true)
  })

  it('validates every command: invalid params change nothing and return INVALID_INPUT', async () => {
    const a = await start()
    const before = JSON.stringify(a.lists)
    for (const [command, params] of [
      ['addSymbols', { id: 'crypto' }],
      ['addSymbols', { id: 'crypto', inputs: [] }],
      ['createWatchlist', { name: '' }],
      ['noSuchCommand', {}],
      ['updateSettings', { plan: 'gold' }],
      ['addAlert', { key: 'crypto:BTCUSDT', condition: { kind: 'above' } }],
    ] as const) {
      const outcome = await a.invoke(command, params)
      expect(outcome.ok, `${command} ${JSON.stringify(params)}`).toBe(false)
      if (!outcome.ok) expect(outcome.error.code).toBe('INVALID_INPUT')
    }
    expect(JSON.stringify(a.lists)).toBe(before)
  })

  it('persists watchlists and alerts across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-app-'))
    const a = await start(dir)
    const list = await okResult<{ id: string }>(a.invoke('createWatchlist', { name: 'Asia' }))
    await okResult(a.invoke('addSymbols', { id: list.id, inputs: ['hk:00700'] }))
    await okResult(
      a.invoke('addAlert', { key: 'hk:00700', condition: { kind: 'above', price: 1_000_000 } }),
    )
    await a.close()
    const b = await start(dir)
    expect(b.lists.watchlists.find((w) => w.name === 'Asia')?.symbols).toEqual(['hk:00700'])
    expect(b.rules.map((r) => r.key)).toEqual(['hk:00700'])
  })

  it('moves a corrupt watchlist file aside, reports it and keeps working', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-app-'))
    writeFileSync(join(dir, 'watchlists.json'), '{"version":1,"data":{"watchlists":[{"id":')
    const a = await start(dir)
    const snap = await okResult<Snapshot>(a.invoke('getSnapshot', {}))
    expect(snap.notices.some((n) => n.code === 'STORAGE_CORRUPT')).toBe(true)
    expect(readdirSync(dir).some((f) => f.startsWith('watchlists.corrupt-'))).toBe(true)
    expect(snap.watchlists.length).toBeGreaterThan(0)
  })

  it('fires an alert from core with no renderer attached and records it in history', async () => {
    const a = await start()
    const fired: string[] = []
    a.onAlertFired((alert) => fired.push(alert.key))
    await okResult(
      a.invoke('addAlert', { key: 'crypto:BTCUSDT', condition: { kind: 'above', price: 1 } }),
    )
    await expect.poll(() => fired, { timeout: 10_000 }).toContain('crypto:BTCUSDT')
    const snap = await okResult<Snapshot>(a.invoke('getSnapshot', {}))
    expect(snap.alertHistory[0]?.key).toBe('crypto:BTCUSDT')
  })

  it('never writes the API key to the data folder and never sends it over the bridge', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-app-'))
    const a = await start(dir)
    const events: string[] = []
    a.subscribe((e) => events.push(JSON.stringify(e)))
    const key = 'sk-live-RECOGNISABLE-0123456789'
    const info = await okResult<{ masked: string; hasKey: boolean }>(
      a.invoke('setApiKey', { apiKey: key }),
    )
    expect(info).toMatchObject({ hasKey: true, masked: '••••6789' })
    await okResult(a.invoke('updateSettings', { theme: 'dark' }))
    const snap = JSON.stringify(await okResult(a.invoke('getSnapshot', {})))
    await a.close()
    app = null
    expect(snap).not.toContain(key)
    expect(events.join('\n')).not.toContain(key)
    // Every file, the bars' folders included.
    for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
      if (statSync(join(dir, f)).isFile())
        expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain(key)
  })

  it('applies a settings patch without resetting the other settings', async () => {
    const a = await start()
    await okResult(a.invoke('updateSettings', { closeToTray: false }))
    const next = await okResult<{ closeToTray: boolean; theme: string }>(
      a.invoke('updateSettings', { theme: 'dark' }),
    )
    expect(next).toMatchObject({ closeToTray: false, theme: 'dark' })
  })

  it('re-plans the watch for pinned symbols but not for a layout change, and answers setVisibleSymbols before re-planning once', async () => {
    const a = await start()
    const engine = a.feed.engine
    const real = engine.setPriorities.bind(engine)
    let plans = 0
    engine.setPriorities = (priorities) => {
      plans++
      real(priorities)
    }
    await okResult(a.invoke('updateSettings', { layout: { alertsOpen: true } }))
    expect(plans).toBe(0)
    await okResult(a.invoke('updateSettings', { pinned: ['crypto:BTCUSDT'] }))
    expect(plans).toBe(1)
    await Promise.all([
      okResult(a.invoke('setVisibleSymbols', { keys: ['crypto:BTCUSDT'] })),
      okResult(a.invoke('setVisibleSymbols', { keys: ['crypto:ETHUSDT'] })),
    ])
    expect(plans).toBe(1)
    await new Promise((resolve) => setImmediate(resolve))
    expect(plans).toBe(2)
  })

  it('answers openLogFolder with the host folder, opened or not, and NOT_SUPPORTED without one', async () => {
    const a = await start()
    expect(await a.invoke('openLogFolder', {})).toMatchObject({
      ok: false,
      error: { code: 'NOT_SUPPORTED' },
    })
    await a.close()
    const shown: string[] = []
    app = await createAppService({
      dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-app-')),
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 9, tickIntervalMs: 100 }),
      logFolder: {
        path: '/data/logs',
        open: async () => {
          shown.push('/data/logs')
          throw new Error('no file manager')
        },
      },
    })
    expect(await app.invoke('openLogFolder', {})).toEqual({
      ok: true,
      result: { path: '/data/logs', opened: false },
    })
    expect(shown).toEqual(['/data/logs'])
  })

  it('leaves demo mode when a key is entered for a base URL: the demo service closes, one engine runs, no demo price is carried into the live rows', async () => {
    const service = await startSimulator({ seed: 12, tickIntervalMs: 100 })
    const demos: Array<{ url: string; closed: boolean }> = []
    try {
      app = await createAppService({
        dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-app-')),
        env: { TICKDESK_BASE_URL: service.url, TICKDESK_PLAN: 'pro' },
        secretStore: memorySecretStore(),
        demo: async () => {
          const demo = await startDemoService({ seed: 9, tickIntervalMs: 100 })
          const seen = { url: demo.url, closed: false }
          demos.push(seen)
          return { ...demo, close: () => ((seen.closed = true), demo.close()) }
        },
      })
      const a = app
      expect(a.snapshot().status.demo).toBe(true)
      await expect
        .poll(() => a.snapshot().quotes.filter((q) => q.last !== null).length, { timeout: 10_000 })
        .toBeGreaterThan(3)
      await okResult(a.invoke('setApiKey', { apiKey: service.keys.pro }))
      expect(a.feed.config).toMatchObject({ baseUrl: service.url, demo: false })
      expect(demos).toEqual([{ url: expect.any(String), closed: true }])
      expect(a.snapshot().quotes.filter((q) => q.source === 'cache')).toEqual([])
      await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
      expect(service.stats().maxWsOpen).toBe(1)

      await okResult(a.invoke('clearApiKey', {}))
      expect(a.snapshot().status.demo).toBe(true)
      expect(demos.map((d) => d.closed)).toEqual([true, false])
      await a.close()
      app = null
      expect(demos.map((d) => d.closed)).toEqual([true, true])
    } finally {
      await service.close()
    }
  })
})

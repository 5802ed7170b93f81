import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CandleBuilder } from '../../core/bars/candle-builder'
import { BarStore } from '../../core/persistence/bar-store'
import { openDataStores } from '../../core/persistence/stores'
import { startDemoService, startSimulator, type SimServer } from '../../sim'
import { createAppService, type AppService } from '../app-service'
import { barsDir } from './bar-keeper'
import { memorySecretStore } from '../keys/memory-secret-store'

let app: AppService | null = null
afterEach(async () => {
  await app?.close()
  app = null
})

/** The 1m bars a source's folder holds, per symbol: [open time, close] pairs. */
async function saved(dir: string): Promise<Record<string, Array<[number, number]>>> {
  const candles = new CandleBuilder()
  candles.import((await new BarStore(dir).load()).series)
  const out: Record<string, Array<[number, number]>> = {}
  for (const key of candles.keys())
    out[key] = candles.bars(key, '1m', 1000).map((b) => [b.openTime, b.close])
  return out
}

describe('the app keeps each data source’s bars apart', () => {
  it('entering a key saves the demo’s bars to the demo’s folder, and the live session never writes there', async () => {
    const service = await startSimulator({ seed: 12, tickIntervalMs: 100 })
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-bars-'))
    try {
      const a = (app = await demoPricedThenKey(service, dataDir))
      const priced = (): number => a.snapshot().quotes.filter((q) => q.last !== null).length
      expect(a.feed.config).toMatchObject({ baseUrl: service.url, demo: false })

      const demoDir = barsDir(dataDir, { demo: true, baseUrl: '' })
      const liveDir = barsDir(dataDir, { demo: false, baseUrl: service.url })
      await expect.poll(async () => Object.keys(await saved(demoDir)).length).toBeGreaterThan(0)
      const demoAtSwitch = await saved(demoDir)

      await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
      await expect.poll(priced, { timeout: 10_000 }).toBeGreaterThan(3)
      await a.close()
      app = null

      expect(await saved(demoDir)).toEqual(demoAtSwitch)
      expect(Object.keys(await saved(liveDir)).length).toBeGreaterThan(0)
      expect(readdirSync(join(dataDir, 'bars')).sort()).toEqual(
        ['demo', liveDir.split('/').at(-1)].sort(),
      )
    } finally {
      await service.close()
    }
  }, 30_000)

  it('entering a key never shows the demo’s prices in the live rows, and each source keeps its own cache', async () => {
    const service = await startSimulator({ seed: 12, tickIntervalMs: 100 })
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-quotes-'))
    try {
      const a = (app = await demoPricedThenKey(service, dataDir))
      const priced = (): number => a.snapshot().quotes.filter((q) => q.last !== null).length
      // The service has no cache yet: no row may carry a price over from the simulator.
      expect(a.snapshot().quotes.filter((q) => q.source === 'cache')).toEqual([])
      await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
      await expect.poll(priced, { timeout: 10_000 }).toBeGreaterThan(3)
      await a.close()
      app = null

      const stores = openDataStores(dataDir)
      const demo = (await stores.quotesOf({ demo: true, baseUrl: '' }).load()).value
      const live = (await stores.quotesOf({ demo: false, baseUrl: service.url }).load()).value
      expect(demo.length).toBeGreaterThan(3)
      expect(live.length).toBeGreaterThan(3)
      const demoLast = new Map(demo.map((q) => [q.key, q.receivedAt]))
      // Every live quote came from the service after the switch, none is a demo one saved again.
      expect(live.filter((q) => demoLast.get(q.key) === q.receivedAt)).toEqual([])
    } finally {
      await service.close()
    }
  }, 30_000)
})

/**
 * The app started in demo mode with the service's base URL set, run until the demo prices a few
 * rows, then given the service's key as a trader does (the feed switches to the service).
 */
async function demoPricedThenKey(service: SimServer, dataDir: string): Promise<AppService> {
  const a = await createAppService({
    dataDir,
    env: { TICKDESK_BASE_URL: service.url, TICKDESK_PLAN: 'pro' },
    secretStore: memorySecretStore(),
    demo: () => startDemoService({ seed: 9, tickIntervalMs: 100 }),
  })
  const priced = (): number => a.snapshot().quotes.filter((q) => q.last !== null).length
  await expect.poll(priced, { timeout: 10_000 }).toBeGreaterThan(3)
  await ok(a.invoke('setApiKey', { apiKey: service.keys.pro }))
  return a
}

async function ok(promise: Promise<{ ok: boolean; error?: unknown }>): Promise<void> {
  const outcome = await promise
  if (!outcome.ok) throw new Error(`command failed: ${JSON.stringify(outcome.error)}`)
}

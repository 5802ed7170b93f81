import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../sim'
import { createAppService, type AppService } from './app-service'
import { memorySecretStore } from './keys/memory-secret-store'

/**
 * A page can name base URL after base URL. None of them has the key, so each is held (never
 * run); none may leave its own copy of the prices on disk, and what caches there are stay few.
 */
let app: AppService | null = null
let sim: SimServer | null = null
afterEach(async () => {
  await app?.close()
  await sim?.close()
  app = sim = null
})

const cacheFiles = (dir: string): string[] =>
  readdirSync(dir).filter((f) => f.startsWith('quotes-cache.') && !f.includes('.corrupt-'))

describe('base URLs a page names', () => {
  it('leave no quote cache of their own: 25 names, still one cache file a source that ran', async () => {
    sim = await startSimulator({ seed: 47, tickIntervalMs: 100 })
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-named-sources-'))
    app = await createAppService({
      dataDir,
      env: { TICKDESK_PLAN: 'pro' },
      secretStore: memorySecretStore(),
      demo: () => import('../sim').then((s) => s.startDemoService()),
    })
    const a = app
    await a.invoke('updateSettings', { baseUrl: sim.url })
    await a.invoke('setApiKey', { apiKey: sim.keys.pro })
    await expect
      .poll(() => a.snapshot().quotes.some((q) => !q.stale), { timeout: 10_000 })
      .toBe(true)
    for (let i = 0; i < 25; i++)
      await a.invoke('updateSettings', { baseUrl: `http://127.0.0.${2 + i}:${9000 + i}` })
    await a.close()
    app = null
    // The demo's (the start) and the simulator's: the held ones left nothing.
    expect(cacheFiles(dataDir).filter((f) => !f.endsWith('.bak.json')).length).toBeLessThanOrEqual(
      2,
    )
    expect(readdirSync(join(dataDir, 'bars')).length).toBeLessThanOrEqual(2)
  }, 30_000)
})

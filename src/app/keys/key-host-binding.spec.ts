import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../../sim'
import type { KeyInfo } from '../../shared/settings'
import type { FeedStatus } from '../../shared/status'
import { createAppService, type AppService } from '../app-service'
import type { AppServiceOptions } from '../host-api'
import { KEY_WITHHELD } from './key-keeper'
import { memorySecretStore } from './memory-secret-store'
import { keysSeen, listenElsewhere, type Receiver } from '../testing/elsewhere-receiver'

/**
 * Issue 38, finding 1: a page command that points the base URL at another host must not make the
 * engine send the stored key there. The "other host" is a receiver on 127.0.0.2 recording every
 * request's headers (testing/elsewhere-receiver.ts); the real service is the simulator.
 */
let app: AppService | null = null
let sim: SimServer | null = null
let elsewhere: Receiver | null = null
afterEach(async () => {
  await app?.close()
  await sim?.close()
  await elsewhere?.close()
  app = sim = elsewhere = null
})

async function ok<T>(promise: Promise<{ ok: boolean; result?: unknown; error?: unknown }>) {
  const outcome = await promise
  if (!outcome.ok) throw new Error(`command failed: ${JSON.stringify(outcome.error)}`)
  return outcome.result as T
}

/** The app live on the simulator with its key entered for it, as a trader set it up. */
async function liveOnSim(extra: Partial<AppServiceOptions> = {}): Promise<AppService> {
  sim = await startSimulator({ seed: 38, tickIntervalMs: 100 })
  elsewhere = await listenElsewhere()
  app = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-keyhost-')),
    env: { TICKDESK_PLAN: 'pro' },
    secretStore: memorySecretStore(),
    demo: () => Promise.reject(new Error('no demo in this test')),
    ...extra,
  })
  await ok(app.invoke('updateSettings', { baseUrl: sim.url }))
  await ok(app.invoke('setApiKey', { apiKey: sim.keys.pro }))
  const a = app
  await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
  return a
}

describe('the API key stays with the service it was entered for', () => {
  it('withholds the key from a base URL a page moved to another host, says why, and sends it there only after a fresh entry', async () => {
    const a = await liveOnSim({ demo: () => import('../../sim').then((s) => s.startDemoService()) })
    const to = elsewhere!
    await ok(a.invoke('updateSettings', { baseUrl: to.url }))
    // Long enough for an engine that had the key to have used it (it starts with a REST call).
    await new Promise((r) => setTimeout(r, 600))
    expect(keysSeen(to)).toEqual([])
    expect(a.snapshot().notices.find((n) => n.code === KEY_WITHHELD)?.message).toMatch(
      /stopped.*127\.0\.0\.1:\d+.*127\.0\.0\.2:\d+/,
    )
    expect(a.snapshot().keyInfo.withheld).toContain('127.0.0.2')
    // The control: a key entered for this host does reach it, so the silence above is the binding.
    await ok(a.invoke('setApiKey', { apiKey: 'fresh-key-for-elsewhere' }))
    await expect.poll(() => keysSeen(to), { timeout: 10_000 }).toContain('fresh-key-for-elsewhere')
    expect(keysSeen(to)).not.toContain(sim!.keys.pro)
    expect(a.snapshot().notices.some((n) => n.code === KEY_WITHHELD)).toBe(false)
  })

  it('stops the live feed while the key is withheld: no demo prices, the last real prices kept and marked stale, the status says why and how to go live', async () => {
    let demoStarts = 0
    const a = await liveOnSim({
      demo: () => {
        demoStarts++
        return import('../../sim').then((s) => s.startDemoService())
      },
    })
    // The app starts in demo mode before the key is entered: count only what comes after.
    const demoStartsLive = demoStarts
    const statuses: FeedStatus[] = []
    a.subscribe((e) => {
      if (e.type === 'status') statuses.push(e.status)
    })
    await expect
      .poll(() => a.snapshot().quotes.filter((q) => !q.stale).length, { timeout: 10_000 })
      .toBeGreaterThan(0)
    const to = elsewhere!
    await ok(a.invoke('updateSettings', { baseUrl: to.url }))

    const held = a.snapshot()
    expect(held.status).toMatchObject({ state: 'stopped', code: KEY_WITHHELD, demo: false })
    expect(held.status.message).toMatch(
      /127\.0\.0\.1:\d+.*127\.0\.0\.2:\d+.*enter the key again.*set the base URL back to 127\.0\.0\.1:\d+/,
    )
    expect(statuses.at(-1)).toEqual(held.status)
    // The rows keep what the service sent last, every one marked stale, and nothing moves them.
    expect(held.quotes.length).toBeGreaterThan(0)
    expect(held.quotes.every((q) => q.stale)).toBe(true)
    await new Promise((r) => setTimeout(r, 600))
    expect(a.snapshot().quotes).toEqual(held.quotes)
    expect(a.snapshot().status.state).toBe('stopped')
    expect(demoStarts).toBe(demoStartsLive)
    expect(keysSeen(to)).toEqual([])
    // A chart asked meanwhile is refused in the same words, not fetched anywhere.
    const chart = await a.invoke('getCandles', {
      key: held.quotes[0]!.key,
      interval: '1m',
      limit: 50,
    })
    expect(chart).toMatchObject({ ok: false, error: { code: KEY_WITHHELD } })

    // Setting the base URL back is the other way to go live.
    await ok(a.invoke('updateSettings', { baseUrl: sim!.url }))
    await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
    expect(a.snapshot().notices.some((n) => n.code === KEY_WITHHELD)).toBe(false)
    expect(demoStarts).toBe(demoStartsLive)
  })

  it('sends the kept key to the new host only when the host’s confirmation (outside the page) says yes', async () => {
    const asked: Array<{ from: string; to: string }> = []
    let answer = false
    const a = await liveOnSim({
      demo: () => import('../../sim').then((s) => s.startDemoService()),
      confirmKeyHost: async (change) => {
        asked.push(change)
        return answer
      },
    })
    const to = elsewhere!
    await ok(a.invoke('updateSettings', { baseUrl: to.url }))
    await new Promise((r) => setTimeout(r, 400))
    expect(keysSeen(to)).toEqual([])
    expect(asked).toEqual([{ from: new URL(sim!.url).host, to: new URL(to.url).host }])

    await ok(a.invoke('updateSettings', { baseUrl: sim!.url }))
    expect(a.snapshot().keyInfo).toMatchObject<Partial<KeyInfo>>({ withheld: null })
    answer = true
    await ok(a.invoke('updateSettings', { baseUrl: to.url }))
    await expect.poll(() => keysSeen(to), { timeout: 10_000 }).toContain(sim!.keys.pro)
    expect(asked).toHaveLength(2)
  })

  it('binds a key saved before the binding existed to the service in use, not to the next one', async () => {
    sim = await startSimulator({ seed: 38, tickIntervalMs: 100 })
    elsewhere = await listenElsewhere()
    app = await createAppService({
      dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-keyhost-')),
      env: { TICKDESK_PLAN: 'pro', TICKDESK_BASE_URL: sim.url },
      secretStore: memorySecretStore(sim.keys.pro),
      demo: () => import('../../sim').then((s) => s.startDemoService()),
    })
    expect(app.snapshot().keyInfo.forHost).toBe(new URL(sim.url).host)
  })
})

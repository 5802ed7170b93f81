import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppService, type AppService } from '../../src/app/app-service'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import type { AtomicWriter } from '../../src/core/persistence/atomic-file'
import { defaultWriter } from '../../src/core/persistence/atomic-file'
import type { Snapshot } from '../../src/shared/bridge'
import { startDemoService, startSimulator, type SimServer } from '../../src/sim'
import { realPause, tempDir } from './harness'

/**
 * Faults seen through the real AppService (what the trader sees: feed status, notices, the lists
 * and alerts in the snapshot) with real files in a temp data dir.
 */

let sim: SimServer | null = null
const apps: AppService[] = []
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close()
  await sim?.close()
  sim = null
})

async function ok<T>(p: Promise<{ ok: boolean; result?: unknown; error?: unknown }>): Promise<T> {
  const out = await p
  if (!out.ok) throw new Error(`command failed: ${JSON.stringify(out.error)}`)
  return out.result as T
}

async function againstSim(dataDir: string, key: string): Promise<AppService> {
  sim ??= await startSimulator({ seed: 11, tickIntervalMs: 100 })
  const app = await createAppService({
    dataDir,
    env: { TICKDESK_BASE_URL: sim.url, TICKDESK_PLAN: 'pro' },
    secretStore: memorySecretStore(key),
    demo: () => startDemoService(),
  })
  apps.push(app)
  return app
}

async function demoApp(dataDir: string, writer?: AtomicWriter): Promise<AppService> {
  const app = await createAppService({
    dataDir,
    env: {},
    secretStore: memorySecretStore(),
    demo: () => startDemoService({ seed: 3, tickIntervalMs: 200 }),
    ...(writer ? { writer } : {}),
  })
  apps.push(app)
  return app
}

const snapshot = (a: AppService): Promise<Snapshot> => ok<Snapshot>(a.invoke('getSnapshot', {}))

/** The user's own work: every list with its symbols, and every alert rule's key and condition. */
function work(s: Snapshot): string {
  return JSON.stringify({
    lists: s.watchlists.map((w) => [w.name, w.symbols]),
    alerts: s.alerts.map((r) => [r.key, r.condition]),
  })
}

async function addWork(a: AppService, name: string): Promise<void> {
  const list = await ok<{ id: string }>(a.invoke('createWatchlist', { name }))
  await ok(a.invoke('addSymbols', { id: list.id, inputs: ['crypto:SOLUSDT'] }))
  await ok(
    a.invoke('addAlert', { key: 'crypto:SOLUSDT', condition: { kind: 'above', price: 1e9 } }),
  )
}

describe('faults through the application service', () => {
  it('stops on a revoked key (401) with nothing sent, then a new key entered recovers with no restart', async () => {
    const dir = tempDir()
    const first = 'sk-revoked-0000-1111'
    sim = await startSimulator({ seed: 11, tickIntervalMs: 100 })
    const a = await againstSim(dir, first)
    await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('stopped')
    expect(a.snapshot().status.code).toBe('UNAUTHORIZED')
    await addWork(a, 'Kept')
    const before = work(await snapshot(a))
    await realPause(300)
    const sent = sim.stats().requests
    await realPause(1500)
    expect(sim.stats().requests - sent).toBe(0)

    const info = await ok<{ hasKey: boolean }>(a.invoke('setApiKey', { apiKey: sim.keys.pro }))
    expect(info.hasKey).toBe(true)
    await expect.poll(() => a.snapshot().status.state, { timeout: 15_000 }).toBe('live')
    await expect
      .poll(() => a.snapshot().quotes.filter((q) => q.last !== null && !q.stale).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(3)
    expect(work(await snapshot(a))).toBe(before)
    expect(sim.stats().maxWsOpen).toBe(1)

    // And the other way round: the service revokes the key mid-session.
    sim.faults.revokeKey(sim.keys.pro)
    sim.faults.dropSockets()
    await expect.poll(() => a.snapshot().status.code, { timeout: 15_000 }).toBe('UNAUTHORIZED')
    expect(a.snapshot().quotes.filter((q) => q.last !== null).length).toBeGreaterThan(3)
    expect(a.snapshot().quotes.every((q) => q.stale)).toBe(true)
    await ok(a.invoke('setApiKey', { apiKey: sim.keys.enterprise }))
    await expect.poll(() => a.snapshot().status.state, { timeout: 15_000 }).toBe('live')
    expect(sim.stats().maxWsOpen).toBe(1)
  })

  it('keeps changes in memory on a full disk (ENOSPC), says so, and saves them when space is back', async () => {
    const dir = tempDir()
    let full = false
    const writer: AtomicWriter = (path, data, mode) =>
      full
        ? Promise.reject(Object.assign(new Error('ENOSPC: no space left'), { code: 'ENOSPC' }))
        : defaultWriter(path, data, mode)
    const a = await demoApp(dir, writer)
    await addWork(a, 'Before')
    const onDisk = readFileSync(join(dir, 'watchlists.json'), 'utf8')
    full = true
    await addWork(a, 'While full')
    const snap = await snapshot(a)
    expect(snap.notices.map((n) => n.code)).toContain('DISK_FULL')
    expect(snap.watchlists.map((w) => w.name)).toContain('While full')
    expect(readFileSync(join(dir, 'watchlists.json'), 'utf8')).toBe(onDisk) // old version intact
    full = false
    await ok(a.invoke('setActiveWatchlist', { id: snap.watchlists[0]?.id }))
    await ok(a.invoke('setAlertEnabled', { id: snap.alerts[0]?.id, enabled: true }))
    const expected = work(await snapshot(a))
    await a.close()
    apps.length = 0
    const b = await demoApp(dir)
    const again = await snapshot(b)
    expect(work(again)).toBe(expected)
    expect(again.notices).toEqual([])
  })

  for (const file of ['settings', 'watchlists', 'alerts'] as const) {
    for (const damage of ['truncated', 'garbage'] as const) {
      it(`recovers a ${damage} ${file}.json from its backup, keeps the damaged file and says so`, async () => {
        const dir = tempDir()
        const a = await demoApp(dir)
        await addWork(a, 'One')
        await ok(a.invoke('updateSettings', { theme: 'dark' }))
        await addWork(a, 'Two')
        await ok(a.invoke('updateSettings', { theme: 'light', alertsPaused: true }))
        await a.close()
        apps.length = 0
        const path = join(dir, `${file}.json`)
        const text = readFileSync(path, 'utf8')
        const backup = readFileSync(join(dir, `${file}.bak.json`), 'utf8')
        writeFileSync(path, damage === 'truncated' ? text.slice(0, text.length >> 1) : '\u0000x{]')

        const b = await demoApp(dir)
        const snap = await snapshot(b)
        const notice = snap.notices.find((n) => n.code === 'STORAGE_CORRUPT')
        expect(notice?.message).toContain(`${file}.json`)
        expect(notice?.message).toContain('Restored the last good version')
        const aside = readdirSync(dir).filter((f) => f.startsWith(`${file}.corrupt-`))
        expect(aside).toHaveLength(1)
        // The restored value is exactly the backup: at most the last change is lost, never more.
        expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(JSON.parse(backup))
        expect(snap.watchlists.some((w) => w.name === 'One')).toBe(true)
        expect(snap.alerts.length).toBeGreaterThanOrEqual(1)
      })
    }
  }

  it('lets two app instances on one data dir save concurrently without a broken file', async () => {
    const dir = tempDir()
    const a = await demoApp(dir)
    const b = await demoApp(dir)
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => addWork(a, `A${i}`)),
      ...Array.from({ length: 10 }, (_, i) => addWork(b, `B${i}`)),
      ok(a.invoke('updateSettings', { theme: 'dark' })),
      ok(b.invoke('updateSettings', { theme: 'light' })),
    ])
    await a.close()
    await b.close()
    apps.length = 0
    const c = await demoApp(dir)
    const snap = await snapshot(c)
    expect(snap.notices.filter((n) => n.code === 'STORAGE_CORRUPT')).toEqual([])
    expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toEqual([])
    // Last writer wins, per file: the lists are one instance's whole set, not a mix.
    const names = snap.watchlists.map((w) => w.name).filter((n) => /^[AB]\d$/.test(n))
    expect(names.length).toBe(10)
    expect(new Set(names.map((n) => n[0])).size).toBe(1)
  })
})

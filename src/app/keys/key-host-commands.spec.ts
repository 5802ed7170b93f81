import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import { createAppService } from '../app-service'
import { BASE_URL_REFUSED, KEY_NOT_CONFIRMED } from './keyed-feed'
import { EMPTY_RING, packRing, withKey } from './key-binding'
import { openDataStores } from '../../core/persistence/stores'
import { memorySecretStore } from './memory-secret-store'
import { okResult } from '../testing/app-on-sim'
import { keyHostRun, liveOnSim, origin } from '../testing/key-host-run'

/**
 * The key's commands on a running app, and a base URL the URL policy refuses: the app against the
 * simulator, with a receiver on 127.0.0.2 (testing/elsewhere-receiver.ts) as the other host.
 */
const run = keyHostRun()

describe('a base URL the URL policy refuses, from a file', () => {
  it('stops the feed with the reason, sends nothing, and goes live once Settings names a service it allows', async () => {
    run.sim = await startSimulator({ seed: 47, tickIntervalMs: 100 })
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-keyhost-policy-'))
    const stores = openDataStores(dataDir)
    const saved = (await stores.settings.load()).value
    // An older version, or a hand edit, left plain http to a remote host in settings.json.
    await stores.settings.save({ ...saved, baseUrl: 'http://md.tickdesk-remote.invalid:8080' })
    run.app = await createAppService({
      dataDir,
      env: { TICKDESK_PLAN: 'pro' },
      secretStore: memorySecretStore(
        packRing(withKey(EMPTY_RING, origin(run.sim.url), run.sim.keys.pro)),
      ),
      demo: () => import('../../sim').then((s) => s.startDemoService()),
    })
    const a = run.app
    const status = a.snapshot().status
    expect(status).toMatchObject({ state: 'stopped', code: BASE_URL_REFUSED, demo: false })
    expect(status.message).toBe(
      'Live prices stopped: the base URL must use https:// (plain http:// only to this machine: 127.0.0.1, ::1, localhost). Change it in Settings.',
    )
    expect(a.snapshot().notices.filter((n) => n.code !== 'KEYCHAIN_UNAVAILABLE')).toMatchObject([
      { level: 'error', code: BASE_URL_REFUSED, message: status.message },
    ])
    await okResult(a.invoke('updateSettings', { baseUrl: run.sim.url }))
    await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
    expect(a.snapshot().notices.some((n) => n.code === BASE_URL_REFUSED)).toBe(false)
  })
})

describe('the key’s commands on a running feed', () => {
  it('names its codes as the page reads them', () => {
    expect([KEY_NOT_CONFIRMED, BASE_URL_REFUSED]).toEqual(['KEY_NOT_CONFIRMED', 'BASE_URL_REFUSED'])
  })

  it('hands a new key for the service running to its engine, tells the page, clears back to demo, and stops the engine on close', async () => {
    const a = await liveOnSim(run)
    const events: string[] = []
    a.subscribe((e) => {
      if (e.type === 'settings') events.push(`settings ${e.keyInfo.masked}`)
    })
    const engine = a.feed.engine
    await okResult(a.invoke('setApiKey', { apiKey: run.sim!.keys.pro }))
    expect(a.feed.engine).toBe(engine)
    expect(events).toEqual([`settings ••••${run.sim!.keys.pro.slice(-4)}`])
    await okResult(a.invoke('clearApiKey', {}))
    expect(a.feed.config.demo).toBe(true)
    expect(a.snapshot().keyInfo.hasKey).toBe(false)
    const demoEngine = a.feed.engine
    await a.close()
    run.app = null
    expect(demoEngine.status().state).toBe('stopped')
  })

  it('drops a question the page moved on from before its turn: only what the base URL names when it comes is asked', async () => {
    const asked: string[] = []
    const answers: Array<(yes: boolean) => void> = []
    const a = await liveOnSim(run, {
      confirmKeyMove: {
        where: 'in the test',
        confirm: (move) => {
          asked.push(`${move.kind} ${move.to}`)
          return new Promise((resolve) => answers.push(resolve))
        },
      },
    })
    const port = new URL(run.elsewhere!.url).port
    const [x, y, z] = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((h) => `http://${h}:${port}`)
    await okResult(a.invoke('updateSettings', { baseUrl: x }))
    await expect.poll(() => asked.length).toBe(1)
    // While X's question is open: a key typed for X, then the page moves on to Y and Z.
    const typed = a.invoke('setApiKey', { apiKey: 'typed-for-x-0001' })
    await okResult(a.invoke('updateSettings', { baseUrl: y! }))
    await okResult(a.invoke('updateSettings', { baseUrl: z! }))
    answers[0]!(false)
    await expect.poll(() => asked.length).toBe(2)
    expect(asked).toEqual([`move ${x}`, `move ${z}`])
    expect(await typed).toMatchObject({ ok: false, error: { code: KEY_NOT_CONFIRMED } })
    answers[1]!(false)
    await a.keyMovesSettled()
    expect(asked).toHaveLength(2)
    expect(a.snapshot().keyInfo).toMatchObject({ forHost: origin(run.sim!.url) })
    expect(a.snapshot().keyInfo.withheld).toContain('127.0.0.4')
  })
})

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startSimulator } from '../../sim'
import type { KeyInfo } from '../../shared/settings'
import type { FeedStatus } from '../../shared/status'
import { createAppService, type AppService } from '../app-service'
import { KEY_WITHHELD } from './key-keeper'
import { KEY_NOT_CONFIRMED } from './keyed-feed'
import type { KeyMove } from './key-move'
import { memorySecretStore } from './memory-secret-store'
import { keysSeen, listenElsewhere } from '../testing/elsewhere-receiver'
import { okResult } from '../testing/app-on-sim'
import { keyHostRun, liveOnSim, origin } from '../testing/key-host-run'

/**
 * A page command that points the base URL at another host, or enters a key of its own, must not
 * make the engine send the trader's key there or go live on the page's service. The "other host"
 * is a receiver on 127.0.0.2 recording every request's headers (testing/elsewhere-receiver.ts);
 * the real service is the simulator.
 */
const run = keyHostRun()

describe('the API key stays with the service it was entered for', () => {
  it('withholds the key from a base URL a page moved to another host, says why, and sends a key there only after a fresh entry confirmed outside the page', async () => {
    const a = await liveOnSim(run, {
      demo: () => import('../../sim').then((s) => s.startDemoService()),
      // The trader keeps the key where it was, and accepts the key they typed for the new host.
      confirmKeyMove: { where: 'in the test', confirm: async (move) => move.kind === 'new-key' },
    })
    const to = run.elsewhere!
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))
    await a.keyMovesSettled()
    // Long enough for an engine that had the key to have used it (it starts with a REST call).
    await new Promise((r) => setTimeout(r, 600))
    expect(keysSeen(to)).toEqual([])
    expect(a.snapshot().notices.find((n) => n.code === KEY_WITHHELD)?.message).toMatch(
      /stopped.*http:\/\/127\.0\.0\.1:\d+.*http:\/\/127\.0\.0\.2:\d+/,
    )
    expect(a.snapshot().keyInfo.withheld).toContain('127.0.0.2')
    // The control: a key entered for this host does reach it, so the silence above is the binding.
    await okResult(a.invoke('setApiKey', { apiKey: 'fresh-key-for-elsewhere' }))
    await expect.poll(() => keysSeen(to), { timeout: 10_000 }).toContain('fresh-key-for-elsewhere')
    expect(keysSeen(to)).not.toContain(run.sim!.keys.pro)
    expect(a.snapshot().notices.some((n) => n.code === KEY_WITHHELD)).toBe(false)
  })

  it('stops the live feed while the key is withheld: no demo prices, the last real prices kept and marked stale, the status says why and how to go live', async () => {
    let demoStarts = 0
    const a = await liveOnSim(run, {
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
    const to = run.elsewhere!
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))

    const held = a.snapshot()
    expect(held.status).toMatchObject({ state: 'stopped', code: KEY_WITHHELD, demo: false })
    expect(held.status.message).toMatch(
      /127\.0\.0\.1:\d+.*127\.0\.0\.2:\d+.*enter the key again in Settings for http:\/\/127\.0\.0\.2:\d+, or set the base URL back to http:\/\/127\.0\.0\.1:\d+\.$/,
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
    await okResult(a.invoke('updateSettings', { baseUrl: run.sim!.url }))
    await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
    expect(a.snapshot().notices.some((n) => n.code === KEY_WITHHELD)).toBe(false)
    expect(demoStarts).toBe(demoStartsLive)
  })

  it('sends the kept key to the new host only when the host’s confirmation (outside the page) says yes, naming both origins in full', async () => {
    const asked: KeyMove[] = []
    let answer = false
    const a = await liveOnSim(run, {
      demo: () => import('../../sim').then((s) => s.startDemoService()),
      confirmKeyMove: {
        where: 'in the test',
        confirm: async (move) => {
          asked.push(move)
          return answer
        },
      },
    })
    const to = run.elsewhere!
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))
    await a.keyMovesSettled()
    await new Promise((r) => setTimeout(r, 400))
    expect(keysSeen(to)).toEqual([])
    expect(asked).toEqual([{ kind: 'move', from: origin(run.sim!.url), to: origin(to.url) }])

    // Refused once, not asked again this session, however often the page moves the base URL.
    await okResult(a.invoke('updateSettings', { baseUrl: run.sim!.url }))
    expect(a.snapshot().keyInfo).toMatchObject<Partial<KeyInfo>>({ withheld: null })
    answer = true
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))
    await a.keyMovesSettled()
    expect(asked).toHaveLength(1)
    expect(keysSeen(to)).toEqual([])
    // A yes to a new question, once settled, has moved the key: no wait beyond that.
    const third = `http://127.0.0.3:${new URL(to.url).port}`
    await okResult(a.invoke('updateSettings', { baseUrl: third }))
    await a.keyMovesSettled()
    expect(asked).toHaveLength(2)
    expect(a.snapshot().keyInfo).toMatchObject({ withheld: null, forHost: third })
  })

  it('binds exactly the origin the question showed: a yes to a look-alike does not send the key where the page moved on to', async () => {
    const asked: KeyMove[] = []
    const answers: Array<(yes: boolean) => void> = []
    const a = await liveOnSim(run, {
      confirmKeyMove: {
        where: 'in the test',
        confirm: (move) => {
          asked.push(move)
          return new Promise((resolve) => answers.push(resolve))
        },
      },
    })
    const to = run.elsewhere!
    const lookAlike = run.sim!.url.replace('127.0.0.1', 'localhost')
    await okResult(a.invoke('updateSettings', { baseUrl: lookAlike }))
    await expect.poll(() => asked.length).toBe(1)
    expect(asked[0]).toEqual({ kind: 'move', from: origin(run.sim!.url), to: origin(lookAlike) })
    // While that question is open, the page moves the base URL on.
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))
    await new Promise((r) => setTimeout(r, 100))
    expect(asked).toHaveLength(1)
    answers[0]!(true) // the trader accepts localhost:PORT, the one they were shown
    // One question at a time: the next one comes only after that answer.
    await expect.poll(() => asked.length).toBe(2)
    expect(asked[1]).toEqual({ kind: 'move', from: origin(lookAlike), to: origin(to.url) })
    answers[1]!(false) // and refuses 127.0.0.2:PORT
    await a.keyMovesSettled()
    await new Promise((r) => setTimeout(r, 600))
    expect(keysSeen(to)).toEqual([])
    expect(a.snapshot().status).toMatchObject({ state: 'stopped', code: KEY_WITHHELD })
    // The key is where the trader said: the look-alike (the simulator itself) takes it.
    await okResult(a.invoke('updateSettings', { baseUrl: lookAlike }))
    await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
  })

  it('refuses a key a page enters for its own service while the trader’s key is kept, and keeps the trader’s key', async () => {
    const a = await liveOnSim(run)
    const to = run.elsewhere!
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))
    const entered = await a.invoke('setApiKey', { apiKey: 'attackers-own-key' })
    expect(entered).toMatchObject({ ok: false, error: { code: KEY_NOT_CONFIRMED } })
    expect((entered as { error: { message: string } }).error.message).toMatch(
      /not saved: Tickdesk keeps your key for http:\/\/127\.0\.0\.1:\d+, and a key for http:\/\/127\.0\.0\.2:\d+ needs your confirmation outside this page\. Set the base URL back to http:\/\/127\.0\.0\.1:\d+ to use that key\.$/,
    )
    const cleared = await a.invoke('clearApiKey', {})
    expect(cleared.ok).toBe(true)
    await new Promise((r) => setTimeout(r, 400))
    expect(a.snapshot().status).toMatchObject({ state: 'stopped', code: KEY_WITHHELD })
    expect(to.seen).toEqual([])
    // The trader's key is still kept for the simulator: setting the URL back goes live on it.
    await okResult(a.invoke('updateSettings', { baseUrl: run.sim!.url }))
    await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
  })

  it('says so when the trader refused a key entered for another service, and where they are asked', async () => {
    const a = await liveOnSim(run, {
      confirmKeyMove: { where: 'in the test’s dialog', confirm: async () => false },
    })
    const to = run.elsewhere!
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))
    await a.keyMovesSettled()
    expect(a.snapshot().status.message).toContain('(or confirm the change in the test’s dialog)')
    const entered = await a.invoke('setApiKey', { apiKey: 'key-for-elsewhere-1' })
    expect(entered).toMatchObject({
      ok: false,
      error: {
        code: KEY_NOT_CONFIRMED,
        message: `The key was not saved: Tickdesk keeps your key for ${origin(run.sim!.url)}, and you did not confirm a key for ${origin(to.url)} (in the test’s dialog). Set the base URL back to ${origin(run.sim!.url)} to use that key.`,
      },
    })
    expect(keysSeen(to)).toEqual([])
  })

  it('uses a key entered for another service only on a yes outside the page, asked with both origins, and keeps both keys', async () => {
    const asked: KeyMove[] = []
    const a = await liveOnSim(run, {
      confirmKeyMove: {
        where: 'in the test',
        confirm: async (move) => {
          asked.push(move)
          return move.kind === 'new-key'
        },
      },
    })
    const to = run.elsewhere!
    await okResult(a.invoke('updateSettings', { baseUrl: to.url }))
    await a.keyMovesSettled()
    await okResult(a.invoke('setApiKey', { apiKey: 'key-for-elsewhere-1' }))
    expect(asked).toEqual([
      { kind: 'move', from: origin(run.sim!.url), to: origin(to.url) },
      { kind: 'new-key', from: origin(run.sim!.url), to: origin(to.url) },
    ])
    await expect.poll(() => keysSeen(to), { timeout: 10_000 }).toContain('key-for-elsewhere-1')
    // Both keys are kept, each for its own service: back on the simulator, its own key works.
    await okResult(a.invoke('updateSettings', { baseUrl: run.sim!.url }))
    await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
    expect(asked).toHaveLength(2)
    expect(keysSeen(to)).not.toContain(run.sim!.keys.pro)
  })

  it('binds a key saved before the binding existed to the service the environment names', async () => {
    run.sim = await startSimulator({ seed: 38, tickIntervalMs: 100 })
    run.elsewhere = await listenElsewhere()
    run.app = await createAppService({
      dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-keyhost-')),
      env: { TICKDESK_PLAN: 'pro', TICKDESK_BASE_URL: run.sim.url },
      secretStore: memorySecretStore(run.sim.keys.pro),
      demo: () => import('../../sim').then((s) => s.startDemoService()),
    })
    expect(run.app.snapshot().keyInfo.forHost).toBe(`${origin(run.sim.url)}`)
  })

  it('never binds TICKDESK_API_KEY to a base URL a page saved in settings.json, in this session or the next', async () => {
    run.sim = await startSimulator({ seed: 38, tickIntervalMs: 100 })
    run.elsewhere = await listenElsewhere()
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-keyhost-env-'))
    const env = { TICKDESK_PLAN: 'pro', TICKDESK_API_KEY: run.sim.keys.pro }
    const start = (): Promise<AppService> =>
      createAppService({
        dataDir,
        env,
        secretStore: memorySecretStore(),
        demo: () => import('../../sim').then((s) => s.startDemoService()),
      })
    run.app = await start()
    await okResult(run.app.invoke('updateSettings', { baseUrl: run.elsewhere.url }))
    await new Promise((r) => setTimeout(r, 400))
    expect(keysSeen(run.elsewhere)).toEqual([])
    await run.app.close()
    // The next launch reads the base URL the page left in settings.json.
    run.app = await start()
    await new Promise((r) => setTimeout(r, 600))
    expect(keysSeen(run.elsewhere)).toEqual([])
    expect(run.app.snapshot().status).toMatchObject({ state: 'stopped', code: KEY_WITHHELD })
    expect(run.app.snapshot().keyInfo.withheld).toMatch(/TICKDESK_BASE_URL/)
  })

  it('sends the key as Authorization: Bearer when Settings says so', async () => {
    run.elsewhere = await listenElsewhere()
    run.app = await createAppService({
      dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-keyhost-bearer-')),
      env: { TICKDESK_PLAN: 'pro' },
      secretStore: memorySecretStore(),
      demo: () => import('../../sim').then((s) => s.startDemoService()),
    })
    const to = run.elsewhere
    await okResult(run.app.invoke('updateSettings', { baseUrl: to.url, auth: 'bearer' }))
    await okResult(run.app.invoke('setApiKey', { apiKey: 'bearer-key-1234' }))
    await expect.poll(() => to.seen.length, { timeout: 10_000 }).toBeGreaterThan(0)
    expect(to.seen.map((h) => h['authorization'])).toContain('Bearer bearer-key-1234')
    expect(keysSeen(to)).toEqual([])
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startHostedApp } from '../../src/app/hosted-app'
import { KEY_WITHHELD } from '../../src/app/keys/key-keeper'
import { keysSeen, listenElsewhere, type Receiver } from '../../src/app/testing/elsewhere-receiver'
import {
  connectRenderer,
  fake,
  fakeEvent,
  FakeBrowserWindow,
} from '../../src/main/testing/fake-electron'
import type { BridgeEvent } from '../../src/shared/bridge'
import { startDemoService, startSimulator, type SimServer } from '../../src/sim'
import { loadPreload, rendererBridge } from './renderer-page'

/**
 * In the Electron host run whole (startElectronHost against the fake
 * electron module, the real app service, preload and renderer client): the page moves the base
 * URL to another host, the trader answers the main-process dialog "Keep the key where it was",
 * and the live feed stops. No demo prices take the live ones' place; the rows keep their last
 * real prices, marked stale; the status says why and how to go live again.
 */
const dialogs: Array<{ message?: string }> = []
vi.mock('electron', async () => ({
  ...(await import('../../src/main/testing/fake-electron')).electronModule,
  dialog: {
    showMessageBox: async (...args: unknown[]) => {
      dialogs.push(args.at(-1) as { message?: string })
      return { response: 0, checkboxChecked: false } // "Keep the key where it was"
    },
  },
}))

const preload = await loadPreload()
fake.reset()
const { startElectronHost } = await import('../../src/main/host')

const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-electron-keyhost-'))
let sim: SimServer | null = null
let elsewhere: Receiver | null = null

afterAll(async () => {
  if (fake.app.quitCalls === 0) fake.app.emit('will-quit', fakeEvent({}))
  await vi.waitFor(() => expect(fake.app.quitCalls).toBeGreaterThan(0), { timeout: 10_000 })
  await sim?.close()
  await elsewhere?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('Electron host: a base URL moved away from the key', () => {
  it('stops the live feed when the dialog keeps the key where it was: no demo prices, the last real ones stale, the reason in the status', async () => {
    sim = await startSimulator({ seed: 38, tickIntervalMs: 100 })
    elsewhere = await listenElsewhere()
    let demoStarts = 0
    await startElectronHost({
      startApp: (opts) =>
        startHostedApp({
          ...opts,
          demo: () => {
            demoStarts++
            return startDemoService({ seed: 38, tickIntervalMs: 100 })
          },
        }),
      mainDir: '/opt/tickdesk/out/main',
      env: {
        TICKDESK_DATA_DIR: dataDir,
        TICKDESK_PLAN: 'pro',
        TICKDESK_PROFILE: `electron-keyhost-${process.pid}`,
      },
      platform: 'linux',
    })
    const win = FakeBrowserWindow.instances[0]!
    win.emit('ready-to-show')
    connectRenderer(win.webContents)
    const renderer = rendererBridge(preload)
    const events: BridgeEvent[] = []
    renderer.subscribe((e) => events.push(e))

    await renderer.invoke('updateSettings', { baseUrl: sim.url })
    await renderer.invoke('setApiKey', { apiKey: sim.keys.pro })
    await expect
      .poll(async () => (await renderer.invoke('getSnapshot', {})).status.state, {
        timeout: 10_000,
      })
      .toBe('live')
    await expect
      .poll(async () => (await renderer.invoke('getSnapshot', {})).quotes.some((q) => !q.stale), {
        timeout: 10_000,
      })
      .toBe(true)
    const demoStartsLive = demoStarts

    await renderer.invoke('updateSettings', { baseUrl: elsewhere.url })
    await vi.waitFor(() =>
      expect(dialogs.map((d) => d.message)).toEqual([
        expect.stringMatching(/^Send your API key to http:\/\/127\.0\.0\.2:\d+\?$/),
      ]),
    )
    const held = await renderer.invoke('getSnapshot', {})
    expect(held.status).toMatchObject({ state: 'stopped', code: KEY_WITHHELD, demo: false })
    expect(held.status.message).toMatch(
      /127\.0\.0\.2:\d+.*enter the key again.*confirm the change in the dialog.*set the base URL back to http:\/\/127\.0\.0\.1:\d+/,
    )
    expect(held.quotes.length).toBeGreaterThan(0)
    expect(held.quotes.every((q) => q.stale)).toBe(true)
    expect(held.notices.find((n) => n.code === KEY_WITHHELD)?.message).toBe(held.status.message)
    const lastStatus = events.filter((e) => e.type === 'status').at(-1)
    expect(lastStatus).toMatchObject({ status: { state: 'stopped', code: KEY_WITHHELD } })

    await new Promise((r) => setTimeout(r, 600))
    const later = await renderer.invoke('getSnapshot', {})
    expect(later.quotes).toEqual(held.quotes)
    expect(later.status.demo).toBe(false)
    expect(demoStarts).toBe(demoStartsLive)
    expect(keysSeen(elsewhere)).toEqual([])
  }, 40_000)
})

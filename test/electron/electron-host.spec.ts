import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startHostedApp } from '../../src/app/hosted-app'
import type { BridgeEvent } from '../../src/shared/bridge'
import {
  connectRenderer,
  fake,
  fakeEvent,
  FakeBrowserWindow,
  FakeNotification,
  FakeTray,
} from '../../src/main/testing/fake-electron'
import { loadPreload, rendererBridge } from './renderer-page'
import { startDemoService } from '../../src/sim'

/**
 * The Electron entry point run whole, the closest this project gets to launching Electron (its
 * binary cannot run here): startElectronHost as src/main/index.ts calls it, against the fake
 * electron module, with the real app service on the embedded simulator, the real preload and
 * the real renderer bridge client, and a real temp data folder.
 *   ready -> window -> renderer command -> snapshot; alert with the window hidden ->
 *   Notification + tray; quit -> watchlists, alerts and the log on disk.
 */
vi.mock(
  'electron',
  async () => (await import('../../src/main/testing/fake-electron')).electronModule,
)

const preload = await loadPreload()
fake.reset()
const { startElectronHost } = await import('../../src/main/host')

const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-electron-'))
const json = (file: string): unknown => JSON.parse(readFileSync(join(dataDir, file), 'utf8'))

afterAll(async () => {
  // A quit that did not run leaves the service open; make sure the simulator goes away.
  if (fake.app.quitCalls === 0) fake.app.emit('will-quit', fakeEvent({}))
  await vi.waitFor(() => expect(fake.app.quitCalls).toBeGreaterThan(0), { timeout: 10_000 })
  rmSync(dataDir, { recursive: true, force: true })
})

describe('startElectronHost, run whole against the fake electron module', () => {
  it('wires window, IPC, alerts, notifications, tray and an orderly quit', async () => {
    await startElectronHost({
      startApp: (opts) =>
        startHostedApp({
          ...opts,
          demo: () => startDemoService({ seed: 21, tickIntervalMs: 50 }),
        }),
      mainDir: '/opt/tickdesk/out/main',
      env: { TICKDESK_DATA_DIR: dataDir, TICKDESK_PROFILE: `electron-host-${process.pid}` },
      platform: 'linux',
    })

    // app ready -> one window on our page, shown when ready; the menu offers the log folder.
    expect(FakeBrowserWindow.instances).toHaveLength(1)
    const win = FakeBrowserWindow.instances[0]!
    expect(win.loadedUrl).toBe('file:///opt/tickdesk/out/renderer/index.html')
    win.emit('ready-to-show')
    expect(win.isVisible()).toBe(true)

    // A renderer command through preload and the IPC pair returns the snapshot.
    connectRenderer(win.webContents)
    const renderer = rendererBridge(preload)
    const events: BridgeEvent[] = []
    renderer.subscribe((e) => events.push(e))
    const snapshot = await renderer.invoke('getSnapshot', {})
    expect(snapshot.status.demo).toBe(true)
    expect(snapshot.watchlists.map((w) => w.name)).toEqual(['Crypto', 'Macro'])

    const list = await renderer.invoke('createWatchlist', { name: 'Desk' })
    await renderer.invoke('addSymbols', { id: list.id, inputs: ['crypto:BTCUSDT'] })
    await renderer.invoke('updateSettings', { pinned: ['crypto:BTCUSDT'] })
    await expect
      .poll(() => FakeTray.instances[0]?.tooltip ?? '', { timeout: 10_000 })
      .toMatch(/BTCUSDT \d/)

    // The strip stays on top when our own window goes full screen and back (electron#2097): the
    // host's wiring sets the strip's always-on-top off and on again each time.
    await renderer.invoke('updateSettings', { strip: { open: true } })
    await expect.poll(() => FakeBrowserWindow.instances.length, { timeout: 5_000 }).toBe(2)
    const bar = FakeBrowserWindow.instances[1]!
    const reasserts = (): number =>
      bar.onTopCalls.filter(([on], i, all) => on && all[i - 1]?.[0] === false).length
    const before = reasserts()
    win.setFullScreen(true)
    win.setFullScreen(false)
    expect(reasserts() - before).toBe(2)
    expect(bar.isAlwaysOnTop()).toBe(true)
    await renderer.invoke('updateSettings', { strip: { open: false } })
    await expect.poll(() => bar.destroyed, { timeout: 5_000 }).toBe(true)

    win.close()
    expect(win.destroyed).toBe(false)
    expect(win.isVisible()).toBe(false)
    const tooltipWrites = FakeTray.instances[0]!.tooltipWrites
    const rule = await renderer.invoke('addAlert', {
      key: 'crypto:BTCUSDT',
      condition: { kind: 'above', price: 1 },
      repeat: 'once',
    })
    await expect.poll(() => FakeNotification.instances.length, { timeout: 10_000 }).toBe(1)
    const notification = FakeNotification.instances[0]!
    expect(notification.shown).toBe(true)
    expect(notification.options.title).toMatch(/^BTCUSDT \d/)
    expect(events.some((e) => e.type === 'alertFired' && e.alert.ruleId === rule.id)).toBe(true)
    await expect
      .poll(() => FakeTray.instances[0]!.tooltipWrites, { timeout: 5_000 })
      .toBeGreaterThan(tooltipWrites)
    // Clicking it brings the window back and asks the renderer to open the symbol.
    notification.emit('click')
    expect(win.isVisible()).toBe(true)
    await expect
      .poll(() => events.some((e) => e.type === 'openSymbol' && e.key === 'crypto:BTCUSDT'))
      .toBe(true)

    // Help > Open Log Folder shows DATA_DIR/logs.
    const menu = fake.appMenu as {
      template: Array<{ label?: string; submenu?: Array<{ label?: string; click?: () => void }> }>
    }
    menu.template
      .find((m) => m.label === 'Help')
      ?.submenu?.find((i) => i.label === 'Open Log Folder')
      ?.click?.()
    await expect.poll(() => fake.openedPaths).toEqual([join(dataDir, 'logs')])

    // Quit: the host holds the quit until the service has saved, then quits for real.
    const quit = fakeEvent({})
    fake.app.emit('before-quit')
    fake.app.emit('will-quit', quit)
    expect(quit.defaultPrevented).toBe(true)
    await expect.poll(() => fake.app.quitCalls, { timeout: 10_000 }).toBeGreaterThan(0)

    expect(json('watchlists.json')).toMatchObject({
      data: {
        watchlists: expect.arrayContaining([
          { id: list.id, name: 'Desk', symbols: ['crypto:BTCUSDT'] },
        ]),
      },
    })
    const alerts = json('alerts.json') as { data: { rules: Array<{ id: string }> } }
    expect(alerts.data.rules.map((r) => r.id)).toEqual([rule.id])
    // Rule states are the alert owner's, in a file of their own.
    expect(json('alert-states.json')).toMatchObject({ data: [{ ruleId: rule.id }] })
    expect(json('alert-history.json')).toMatchObject({ data: [{ ruleId: rule.id }] })
    expect(existsSync(join(dataDir, 'quotes-cache.demo.json'))).toBe(true)
    const log = readFileSync(join(dataDir, 'logs', 'tickdesk.log'), 'utf8')
    expect(log).toContain('"host":"electron"')
    expect(log).toContain('"message":"alert fired"')
    expect(log).toContain('"message":"quit"')
  }, 40_000)
})

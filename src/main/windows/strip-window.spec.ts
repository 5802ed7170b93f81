import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../core/clock'
import { fake, FakeBrowserWindow, FakeTray, type MenuTemplateItem } from '../testing/fake-electron'
import { MemoryApp } from '../testing/memory-app'

vi.mock('electron', async () => (await import('../testing/fake-electron')).electronModule)

const { createStripWindow, stripWindowOptions, STRIP_SIZES } = await import('./strip-window')
const { mainWindowOptions } = await import('./window-options')
const { StripController } = await import('./strip-controller')
const { HostSettings } = await import('../host-settings')
const { TickerTray } = await import('../ticker-tray')
const { appMenuTemplate } = await import('../app-menu')
const { isAppUrl, stripUrl } = await import('../app-url')
const { fitToDisplays } = await import('./window-state')

let dir: string
beforeEach(async () => {
  fake.reset()
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-strip-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const APP = { kind: 'file', path: '/opt/tickdesk/out/renderer/index.html' } as const

function openStrip(remembered: { x: number; y: number; width: number; height: number } | null) {
  return createStripWindow({
    mainDir: '/opt/tickdesk/out/main',
    url: stripUrl(APP),
    isAppUrl: () => true,
    remembered: remembered && { ...remembered, maximized: false },
    stateFile: join(dir, 'strip-window-state.json'),
    clock: new FakeClock(),
    platform: 'linux',
    iconPath: '/opt/tickdesk/resources/icon.png',
  }) as unknown as FakeBrowserWindow
}

describe('strip window', () => {
  it('is small, frameless, always on top and off the taskbar, with the main window sandbox', () => {
    const state = { x: 0, y: 0, width: 900, height: 40, maximized: false }
    const options = stripWindowOptions({ preloadPath: '/p/index.cjs', state, iconPath: '/i.png' })
    expect(options).toMatchObject({
      frame: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      resizable: true,
      maximizable: false,
      show: false,
      icon: '/i.png',
      height: 40,
    })
    expect(options.webPreferences).toEqual(
      mainWindowOptions({ preloadPath: '/p/index.cjs', state }).webPreferences,
    )
  })

  it('loads the renderer in strip mode, guarded, along the top of the screen the first time', () => {
    const win = openStrip(null)
    expect(win.loadedUrl).toBe('file:///opt/tickdesk/out/renderer/index.html?view=strip')
    expect(win.webContents.windowOpenHandler).not.toBeNull()
    const o = win.options as { x: number; y: number; width: number; height: number }
    expect([o.x, o.y, o.width, o.height]).toEqual([480, 8, 960, 40])
    win.emit('ready-to-show')
    expect(win.calls).toEqual(['showInactive'])
  })

  it('counts as the app page for the IPC sender check, so it gets the same bridge', () => {
    expect(isAppUrl(stripUrl(APP), APP)).toBe(true)
    const dev = { kind: 'dev', url: 'http://localhost:5173/' } as const
    expect(stripUrl(dev)).toBe('http://localhost:5173/?view=strip')
    expect(isAppUrl(stripUrl(dev), dev)).toBe(true)
  })

  it('reopens where it was left (a thin window counts as on screen) and saves its place on close', async () => {
    const at = { x: 1500, y: 1030, width: 400, height: 40 }
    expect(
      fitToDisplays({ ...at, maximized: false }, [fake.displays[0]!.workArea], STRIP_SIZES),
    ).toEqual({
      ...at,
      maximized: false,
    })
    const win = openStrip(at)
    win.close()
    await vi.waitFor(async () =>
      expect(
        JSON.parse(await readFile(join(dir, 'strip-window-state.json'), 'utf8')),
      ).toMatchObject(at),
    )
  })
})

describe('strip controller', () => {
  async function start(open = false) {
    const app = new MemoryApp()
    app.settings = { ...app.settings, strip: { ...app.settings.strip, open } }
    const settings = await HostSettings.load(app)
    const quitting = { value: false }
    const created: FakeBrowserWindow[] = []
    const strip = new StripController({
      settings,
      app,
      isQuitting: () => quitting.value,
      createWindow: () => {
        const w = new FakeBrowserWindow({})
        created.push(w)
        return w as never
      },
    })
    return { app, strip, created, quitting }
  }

  it('opens the window when the setting turns on and closes it when it turns off', async () => {
    const { app, strip, created } = await start()
    expect(created).toHaveLength(0)
    strip.toggle()
    await vi.waitFor(() => expect(created).toHaveLength(1))
    expect(app.settings.strip.open).toBe(true)
    expect(strip.window).toBe(created[0])
    strip.toggle()
    await vi.waitFor(() => expect(created[0]!.destroyed).toBe(true))
    expect(strip.window).toBeNull()
    expect(app.settings.strip.open).toBe(false)
  })

  it('comes back at launch when it was open, and saves "closed" when the user closes it', async () => {
    const { app, created } = await start(true)
    expect(created).toHaveLength(1)
    created[0]!.close()
    await vi.waitFor(() => expect(app.settings.strip.open).toBe(false))
  })

  it('keeps "open" for the next launch when the app quits with the strip open', async () => {
    const { app, created, quitting } = await start(true)
    quitting.value = true
    created[0]!.close()
    await new Promise((r) => setTimeout(r, 10))
    expect(app.settings.strip.open).toBe(true)
  })
})

describe('strip toggles in the tray and the app menu', () => {
  it('shows a Ticker strip checkbox in the tray menu that follows and flips the setting', async () => {
    const app = new MemoryApp()
    const settings = await HostSettings.load(app)
    const flips: string[] = []
    const clock = new FakeClock()
    const tray = new TickerTray({
      app,
      settings,
      clock,
      platform: 'linux',
      iconPath: '/t.png',
      isWindowVisible: () => true,
      toggleWindow: () => undefined,
      toggleStrip: () => flips.push('strip'),
      openSymbol: () => undefined,
      quit: () => undefined,
    })
    const item = (): MenuTemplateItem =>
      FakeTray.instances[0]!.menu!.template.find((i) => i.label === 'Ticker strip')!
    expect(item()).toMatchObject({ type: 'checkbox', checked: false })
    item().click?.({ checked: true })
    expect(flips).toEqual(['strip'])
    await app.invoke('updateSettings', { strip: { ...app.settings.strip, open: true } })
    clock.advance(1000)
    expect(item().checked).toBe(true)
    tray.destroy()
  })

  it('has View > Ticker Strip with a shortcut in the app menu', () => {
    const flips: string[] = []
    const menu = appMenuTemplate({
      platform: 'linux',
      isDev: false,
      appName: 'Tickdesk',
      helpUrl: 'https://example.com',
      openExternal: () => undefined,
      quit: () => undefined,
      stripOpen: true,
      toggleStrip: () => flips.push('strip'),
    }) as MenuTemplateItem[]
    const view = menu.find((m) => m.label === 'View')!
    const item = view.submenu!.find((i) => i.label === 'Ticker Strip')!
    expect(item).toMatchObject({
      type: 'checkbox',
      checked: true,
      accelerator: 'CommandOrControl+Shift+T',
    })
    item.click?.({ checked: false })
    expect(flips).toEqual(['strip'])
  })
})

import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../core/clock'
import { fake, FakeBrowserWindow, type MenuTemplateItem } from './testing/fake-electron'
import { MemoryApp } from './testing/memory-app'

vi.mock('electron', async () => (await import('./testing/fake-electron')).electronModule)

const { claimSingleInstance } = await import('./single-instance')
const { createMainWindow, revealWindow } = await import('./windows/main-window')
const { applyLaunchAtLogin, watchSystemResume } = await import('./system-events')
const { appMenuTemplate } = await import('./app-menu')

let dir: string
beforeEach(async () => {
  fake.reset()
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-host-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('single instance', () => {
  it('brings the first window back when a second instance launches', () => {
    const win = new FakeBrowserWindow({})
    win.minimized = true
    expect(claimSingleInstance(() => revealWindow(win as never))).toBe(true)
    fake.app.emit('second-instance', {}, ['tickdesk'], '/home/me')
    expect(win.calls).toEqual(['restore', 'show', 'focus'])
    expect(fake.app.quitCalls).toBe(0)
  })

  it('quits at once when another instance holds the lock', () => {
    fake.app.lock = false
    expect(claimSingleInstance(() => undefined)).toBe(false)
    expect(fake.app.quitCalls).toBe(1)
    expect(fake.app.count('second-instance')).toBe(0)
  })
})

describe('main window lifecycle', () => {
  function open(closeToTray: boolean, quitting = { value: false }) {
    return createMainWindow({
      mainDir: '/opt/tickdesk/out/main',
      url: 'file:///opt/tickdesk/out/renderer/index.html',
      isAppUrl: () => true,
      remembered: { x: 100, y: 80, width: 900, height: 600, maximized: false },
      stateFile: join(dir, 'window-state.json'),
      clock: new FakeClock(),
      closeToTray: () => closeToTray,
      isQuitting: () => quitting.value,
    }) as unknown as FakeBrowserWindow
  }

  it('hides to the tray on close when closeToTray is on', () => {
    const win = open(true)
    win.show()
    win.close()
    expect(win.destroyed).toBe(false)
    expect(win.visible).toBe(false)
  })

  it('really closes when quitting, even with closeToTray on', () => {
    const win = open(true, { value: true })
    win.close()
    expect(win.destroyed).toBe(true)
  })

  it('closes normally when closeToTray is off and remembers its bounds', async () => {
    const win = open(false)
    win.close()
    expect(win.destroyed).toBe(true)
    await vi.waitFor(async () =>
      expect(JSON.parse(await readFile(join(dir, 'window-state.json'), 'utf8'))).toEqual({
        x: 100,
        y: 80,
        width: 900,
        height: 600,
        maximized: false,
      }),
    )
  })

  it('shows itself once the page is ready', () => {
    const win = open(false)
    expect(win.visible).toBe(false)
    win.emit('ready-to-show')
    expect(win.visible).toBe(true)
  })
})

describe('system integration', () => {
  it('tells the app the system resumed from sleep', () => {
    const app = new MemoryApp()
    const stop = watchSystemResume(app)
    fake.powerMonitor.emit('resume')
    expect(app.resumes).toBe(1)
    stop()
    fake.powerMonitor.emit('resume')
    expect(app.resumes).toBe(1)
  })

  it('tells the app how long the system slept, from the suspend event to the resume', () => {
    const app = new MemoryApp()
    const clock = new FakeClock()
    const stop = watchSystemResume(app, clock)
    fake.powerMonitor.emit('suspend')
    clock.jump(90_000)
    fake.powerMonitor.emit('resume')
    fake.powerMonitor.emit('unlock-screen')
    expect(app.resumeGaps).toEqual([90_000, 0])
    stop()
  })

  it('sets the login item on macOS and Windows only', () => {
    expect(applyLaunchAtLogin(true, 'linux')).toBe(false)
    expect(fake.app.loginItem).toBeNull()
    expect(applyLaunchAtLogin(true, 'win32')).toBe(true)
    expect(fake.app.loginItem).toEqual({ openAtLogin: true })
  })
})

describe('application menu', () => {
  const labels = (items: MenuTemplateItem[]): string[] => items.map((i) => i.label ?? i.role ?? '')
  const roles = (items: MenuTemplateItem[] | undefined): string[] =>
    (items ?? []).flatMap((i) => (i.role ? [i.role] : []))
  const build = (platform: NodeJS.Platform, isDev: boolean) => {
    const opened: string[] = []
    const menu = appMenuTemplate({
      platform,
      isDev,
      appName: 'Tickdesk',
      helpUrl: 'https://example.com/help',
      openExternal: (url) => opened.push(url),
      quit: () => undefined,
      stripOpen: false,
      toggleStrip: () => opened.push('strip'),
    }) as MenuTemplateItem[]
    return { menu, opened }
  }

  it('has the mac app menu on macOS and File elsewhere, with Edit roles', () => {
    expect(labels(build('darwin', false).menu)).toEqual([
      'Tickdesk',
      'Edit',
      'View',
      'Window',
      'Help',
    ])
    const { menu } = build('win32', false)
    expect(labels(menu)).toEqual(['File', 'Edit', 'View', 'Window', 'Help'])
    expect(roles(menu[1]!.submenu)).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'])
    expect(menu[0]!.submenu?.[0]?.accelerator).toBe('CommandOrControl+Q')
  })

  it('offers reload and DevTools only in development', () => {
    expect(roles(build('linux', false).menu[2]!.submenu)).not.toContain('toggleDevTools')
    expect(roles(build('linux', false).menu[2]!.submenu)).not.toContain('reload')
    expect(roles(build('linux', true).menu[2]!.submenu)).toEqual(
      expect.arrayContaining(['reload', 'toggleDevTools']),
    )
  })

  it('opens the https help link from Help', () => {
    const { menu, opened } = build('linux', false)
    menu[4]!.submenu?.[0]?.click?.({ checked: false })
    expect(opened).toEqual(['https://example.com/help'])
  })

  it('offers Help > Open Log Folder when the host has a log folder to show', () => {
    let shown = 0
    const menu = appMenuTemplate({
      platform: 'linux',
      isDev: false,
      appName: 'Tickdesk',
      helpUrl: 'https://example.com/help',
      openExternal: () => undefined,
      openLogFolder: () => shown++,
      quit: () => undefined,
      stripOpen: false,
      toggleStrip: () => undefined,
    }) as MenuTemplateItem[]
    const item = menu[4]!.submenu?.find((i) => i.label === 'Open Log Folder')
    item?.click?.({ checked: false })
    expect(shown).toBe(1)
    expect(labels(build('linux', false).menu[4]!.submenu ?? [])).not.toContain('Open Log Folder')
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FakeClock } from '../../core/clock'
import type { FakeBrowserWindow } from '../testing/fake-electron'
import { fake } from '../testing/fake-electron'

vi.mock('electron', async () => (await import('../testing/fake-electron')).electronModule)

const { createMainWindow } = await import('./main-window')
const { createStripWindow } = await import('./strip-window')

let dir: string
beforeEach(async () => {
  fake.reset()
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-place-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const LAPTOP = { x: 0, y: 0, width: 1440, height: 870 }
const MONITOR = { x: 1440, y: 0, width: 2560, height: 1410 }

function mainWindow(at: { x: number; y: number; width: number; height: number }) {
  return createMainWindow({
    mainDir: '/opt/tickdesk/out/main',
    url: 'file:///opt/tickdesk/out/renderer/index.html',
    isAppUrl: () => true,
    remembered: { ...at, maximized: false },
    stateFile: join(dir, 'window-state.json'),
    clock: new FakeClock(),
    closeToTray: () => false,
    isQuitting: () => false,
  }) as unknown as FakeBrowserWindow
}

function strip(platform: NodeJS.Platform = 'linux') {
  return createStripWindow({
    mainDir: '/opt/tickdesk/out/main',
    url: 'file:///opt/tickdesk/out/renderer/index.html?view=strip',
    isAppUrl: () => true,
    remembered: { x: 1600, y: 8, width: 960, height: 40, maximized: false },
    stateFile: join(dir, 'strip-window-state.json'),
    clock: new FakeClock(),
    platform,
  }) as unknown as FakeBrowserWindow
}

function unplug(area: typeof MONITOR): void {
  fake.displays.splice(
    0,
    fake.displays.length,
    ...fake.displays.filter((d) => d.workArea.x !== area.x || d.workArea.y !== area.y),
  )
  fake.screen.emit('display-removed', {}, { workArea: area })
}

describe('windows on a display that went away', () => {
  beforeEach(() => {
    fake.displays.splice(0, fake.displays.length, { workArea: LAPTOP }, { workArea: MONITOR })
  })

  it('brings the main window back onto the laptop when the monitor it was on is unplugged', () => {
    const win = mainWindow({ x: 2000, y: 200, width: 1200, height: 800 })
    expect(win.getBounds()).toEqual({ x: 2000, y: 200, width: 1200, height: 800 })
    unplug(MONITOR)
    const b = win.getBounds()
    expect(b.x).toBeGreaterThanOrEqual(LAPTOP.x)
    expect(b.x + b.width).toBeLessThanOrEqual(LAPTOP.x + LAPTOP.width)
    expect(b.y + b.height).toBeLessThanOrEqual(LAPTOP.y + LAPTOP.height)
  })

  it('brings the strip back too, one line high, and leaves windows on a kept display alone', () => {
    const onLaptop = mainWindow({ x: 100, y: 100, width: 900, height: 600 })
    const bar = strip()
    unplug(MONITOR)
    expect(onLaptop.calls).not.toContain('setBounds')
    const b = bar.getBounds()
    expect(b.height).toBe(40)
    expect(b.x + b.width).toBeLessThanOrEqual(LAPTOP.width)
  })

  it('fits a window again when a display shrinks (a new scale or resolution)', () => {
    const win = mainWindow({ x: 1500, y: 100, width: 2400, height: 1300 })
    const smaller = { ...MONITOR, width: 1280, height: 690 }
    fake.displays.splice(1, 1, { workArea: smaller })
    fake.screen.emit('display-metrics-changed', {}, { workArea: smaller }, ['scaleFactor'])
    const b = win.getBounds()
    expect(b.width).toBeLessThanOrEqual(smaller.width)
    expect(b.x + b.width).toBeLessThanOrEqual(smaller.x + smaller.width)
  })

  it('stops listening to the screen when the window closes', () => {
    const win = mainWindow({ x: 100, y: 100, width: 900, height: 600 })
    expect(fake.screen.count('display-removed')).toBe(1)
    win.close()
    expect(fake.screen.count('display-removed')).toBe(0)
  })
})

describe('the strip stays on top', () => {
  const reasserted = (w: FakeBrowserWindow): number =>
    w.onTopCalls.filter(([flag], i, all) => flag && all[i - 1]?.[0] === false).length

  it('sets always-on-top off and on again after a display change, a resume and losing focus', () => {
    const bar = strip()
    expect(bar.options['alwaysOnTop']).toBe(true)
    fake.screen.emit('display-metrics-changed', {}, {}, ['bounds'])
    fake.powerMonitor.emit('unlock-screen')
    bar.emit('blur')
    expect(reasserted(bar)).toBe(3)
    expect(bar.isAlwaysOnTop()).toBe(true)
  })

  // Our own window going full screen and back: the host's wiring, tested whole in
  // test/electron/electron-host.spec.ts.

  it('shows over full-screen spaces on macOS', () => {
    const bar = strip('darwin')
    expect(bar.calls).toContain('setVisibleOnAllWorkspaces:true:{"visibleOnFullScreen":true}')
    expect(strip('linux').calls.some((c) => c.startsWith('setVisibleOnAllWorkspaces'))).toBe(false)
  })

  it('forgets the screen and power events once the strip closes', () => {
    const bar = strip()
    bar.close()
    expect(fake.screen.count('display-metrics-changed')).toBe(0)
    expect(fake.powerMonitor.count('resume')).toBe(0)
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../../core/clock'
import { fake, FakeBrowserWindow } from '../testing/fake-electron'

vi.mock('electron', async () => (await import('../testing/fake-electron')).electronModule)

const { openMainWindows } = await import('./main-windows')

let dir: string
beforeEach(async () => {
  fake.reset()
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-windows-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function open(opts: { closeToTray?: boolean; strip?: FakeBrowserWindow | null } = {}) {
  const quits: string[] = []
  const windows = openMainWindows({
    mainDir: '/opt/tickdesk/out/main',
    url: 'file:///opt/tickdesk/out/renderer/index.html',
    isAppUrl: () => true,
    remembered: null,
    stateFile: join(dir, 'window-state.json'),
    clock: new FakeClock(),
    closeToTray: () => opts.closeToTray ?? false,
    isQuitting: () => false,
    stripWindow: () => (opts.strip ?? null) as never,
    quitWithStrip: () => quits.push('quit'),
    platform: 'linux',
  })
  return { windows, quits, first: FakeBrowserWindow.instances.at(-1)! }
}

describe('the main window over the app’s life', () => {
  it('opens one window, and a new one when shown after it closed for real', () => {
    const { windows, first } = open()
    expect(FakeBrowserWindow.instances).toHaveLength(1)
    windows.show()
    expect(FakeBrowserWindow.instances).toHaveLength(1)
    first.close()
    expect(windows.window).toBeNull()
    windows.show()
    expect(FakeBrowserWindow.instances).toHaveLength(2)
    expect(windows.window).toBe(FakeBrowserWindow.instances[1])
  })

  it('toggles a window hidden to the tray, and tells listeners each time', () => {
    const { windows, first } = open({ closeToTray: true })
    const seen: boolean[] = []
    const off = windows.onVisibility(() => seen.push(windows.visible))
    first.emit('ready-to-show')
    first.close()
    expect(first.isDestroyed()).toBe(false)
    windows.toggle()
    windows.toggle()
    expect(seen).toEqual([true, false, true, false])
    off()
    windows.toggle()
    expect(seen).toHaveLength(4)
  })

  it('quits when the window closes for real while the strip is open', () => {
    const strip = new FakeBrowserWindow({})
    const { quits, first } = open({ strip })
    first.close()
    expect(quits).toEqual(['quit'])
  })

  it('opens nothing once stopped (an openSymbol arriving while quitting)', () => {
    const { windows, first } = open()
    first.close()
    windows.stop()
    windows.showWith({ type: 'openSymbol', key: 'crypto:BTCUSDT' })
    expect(FakeBrowserWindow.instances).toHaveLength(1)
  })
})

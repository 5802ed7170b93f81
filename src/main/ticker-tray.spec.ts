import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../core/clock'
import type { BridgeEvent } from '../shared/bridge'
import {
  fake,
  FakeBrowserWindow,
  FakeNotification,
  FakeTray,
  type MenuTemplateItem,
} from './testing/fake-electron'
import { MemoryApp } from './testing/memory-app'
import { encodeQuoteFrame } from '../shared/quote-frame'

vi.mock('electron', async () => (await import('./testing/fake-electron')).electronModule)

const { TickerTray, REFRESH_MS } = await import('./ticker-tray')
const { HostSettings } = await import('./host-settings')
const { startAlertNotifier } = await import('./alert-notifier')
const { revealWindow } = await import('./windows/main-window')
const { sendToWindow } = await import('./ipc-bridge')
const { formatTrayQuote } = await import('./tray-text')

let app: MemoryApp
let clock: FakeClock
beforeEach(() => {
  fake.reset()
  app = new MemoryApp()
  clock = new FakeClock()
})

const btc = (last: number, changePercent = 1.2) => ({
  key: 'crypto:BTCUSDT',
  last,
  changePercent,
  stale: false,
})
const alert = {
  id: 'f1',
  ruleId: 'r1',
  key: 'crypto:BTCUSDT',
  message: 'BTCUSDT crossed above 65,000',
  price: 65010.5,
  at: 0,
  whileAway: false,
  awaySince: null,
  quoteAt: null,
  firedBy: 'app' as const,
}
const quotesEvent: BridgeEvent = {
  type: 'quotes',
  frame: encodeQuoteFrame([{ key: 'crypto:BTCUSDT', last: 1 }]),
}

async function startTray(platform: NodeJS.Platform = 'linux') {
  const settings = await HostSettings.load(app)
  const toggles: string[] = []
  const opened: string[] = []
  const tray = new TickerTray({
    app,
    settings,
    clock,
    platform,
    iconPath: '/res/tray-icon.png',
    isWindowVisible: () => false,
    toggleWindow: () => toggles.push('toggle'),
    toggleStrip: () => toggles.push('strip'),
    openSymbol: (key) => opened.push(key),
    quit: () => toggles.push('quit'),
  })
  return { tray, fakeTray: FakeTray.instances[0]!, toggles, opened }
}

function item(menu: MenuTemplateItem[] | undefined, label: string): MenuTemplateItem {
  const found = menu?.find((i) => i.label === label)
  if (!found) throw new Error(`no menu item ${label}`)
  return found
}

describe('tray text', () => {
  it('formats a pinned price as symbol, grouped price and signed change', () => {
    expect(formatTrayQuote(btc(64210.5, 1.234))).toBe('BTCUSDT 64,210.5 +1.2%')
    expect(
      formatTrayQuote({ key: 'fx:EURUSD', last: 1.08412, changePercent: -0.06, stale: true }),
    ).toBe('EURUSD 1.0841 -0.1% (stale)')
    expect(
      formatTrayQuote({ key: 'crypto:ETHUSDT', last: null, changePercent: null, stale: false }),
    ).toBe('ETHUSDT —')
  })
})

describe('TickerTray', () => {
  it('shows several pinned prices in the tooltip and as disabled menu items', async () => {
    app.tray = [
      btc(64210.5),
      { key: 'crypto:ETHUSDT', last: 3120.25, changePercent: -0.4, stale: false },
    ]
    const { fakeTray } = await startTray()
    expect(fakeTray.image).toEqual({ path: '/res/tray-icon.png' })
    expect(fakeTray.tooltip).toBe('Tickdesk\nBTCUSDT 64,210.5 +1.2%\nETHUSDT 3,120.25 -0.4%')
    const menu = fakeTray.menu?.template
    expect(item(menu, 'BTCUSDT 64,210.5 +1.2%').enabled).toBe(false)
    expect(item(menu, 'ETHUSDT 3,120.25 -0.4%').enabled).toBe(false)
    expect(item(menu, 'Show Tickdesk').click).toBeTypeOf('function')
    expect(item(menu, 'Quit Tickdesk').click).toBeTypeOf('function')
    expect(fakeTray.title).toBeNull() // setTitle is macOS only
  })

  it('sets the macOS menu-bar title too', async () => {
    app.tray = [btc(64210.5)]
    const { fakeTray } = await startTray('darwin')
    expect(fakeTray.title).toBe('BTCUSDT 64,210.5 +1.2%')
  })

  it('updates at most once a second however many quote batches arrive', async () => {
    app.tray = [btc(100)]
    const { fakeTray } = await startTray()
    expect(fakeTray.tooltipWrites).toBe(1)
    for (let i = 1; i <= 30; i++) {
      app.tray = [btc(100 + i)]
      app.emit(quotesEvent)
      clock.advance(16)
    }
    // 30 batches over 480 ms: still the first render; the latest price waits for the 1 s mark.
    expect(fakeTray.tooltipWrites).toBe(1)
    clock.advance(REFRESH_MS)
    expect(fakeTray.tooltipWrites).toBe(2)
    expect(fakeTray.tooltip).toContain('BTCUSDT 130 +1.2%')
    const menus = fakeTray.menuWrites
    clock.advance(5 * REFRESH_MS)
    expect(fakeTray.tooltipWrites).toBe(2) // nothing new, nothing written
    // The same prices again: no tooltip, menu or title is rebuilt (Electron's tray leaks per write).
    app.emit(quotesEvent)
    clock.advance(REFRESH_MS)
    expect(fakeTray.tooltipWrites).toBe(2)
    expect(fakeTray.menuWrites).toBe(menus)
    app.tray = [btc(131)]
    app.emit(quotesEvent)
    expect(fakeTray.tooltip).toContain('BTCUSDT 131') // idle for over a second: renders at once
  })

  it('writes the macOS title only when its text changes, at most once a second, never the image', async () => {
    app.tray = [btc(100)]
    const { fakeTray } = await startTray('darwin')
    expect(fakeTray.titleWrites).toBe(1)
    // A minute of quote batches every 16 ms whose price changes only every 10 s.
    for (let ms = 0; ms < 60_000; ms += 16) {
      app.tray = [btc(100 + Math.floor(ms / 10_000))]
      app.emit(quotesEvent)
      clock.advance(16)
    }
    clock.advance(REFRESH_MS)
    // 3,750 batches, 6 prices: one write per new text, and the icon is never set again
    // (FakeTray.setImage throws: Tray.setImage leaks, electron#20850).
    expect(fakeTray.titleWrites).toBe(6)
    expect(fakeTray.title).toBe('BTCUSDT 105 +1.2%')
    expect(fakeTray.tooltipWrites).toBe(6)
  })

  it('toggles alertsPaused through updateSettings from the Pause alerts checkbox', async () => {
    const { fakeTray } = await startTray()
    const pause = item(fakeTray.menu?.template, 'Pause alerts')
    expect(pause).toMatchObject({ type: 'checkbox', checked: false })
    pause.click?.({ checked: true })
    await Promise.resolve()
    expect(app.received.at(-1)).toEqual({
      command: 'updateSettings',
      params: { alertsPaused: true },
    })
    clock.advance(REFRESH_MS)
    expect(item(fakeTray.menu?.template, 'Pause alerts').checked).toBe(true)
  })

  it('quits from the menu and toggles the window on click', async () => {
    const { fakeTray, toggles } = await startTray()
    item(fakeTray.menu?.template, 'Quit Tickdesk').click?.({ checked: false })
    fakeTray.emit('click')
    expect(toggles).toEqual(['quit', 'toggle'])
  })

  it('stops listening and removes the icon when destroyed', async () => {
    const { tray, fakeTray } = await startTray()
    tray.destroy()
    expect(fakeTray.destroyed).toBe(true)
    expect(app.listenerCount()).toBe(1) // only HostSettings' own subscription is left
    expect(app.alertListenerCount()).toBe(0)
  })

  it('shows the latest alert, opens its symbol and snoozes its rule from the menu', async () => {
    const { fakeTray, opened } = await startTray()
    const labels = () => fakeTray.menu?.template.map((i) => i.label) ?? []
    expect(labels().some((l) => l?.startsWith('Last alert'))).toBe(false)
    clock.advance(REFRESH_MS)
    app.fire({ ...alert, at: clock.now() })
    const last = fakeTray.menu?.template.find((i) => i.label?.startsWith('Last alert: '))
    expect(last?.label).toMatch(/^Last alert: \d\d:\d\d BTCUSDT crossed above 65,000$/)
    last?.click?.({ checked: false })
    expect(opened).toEqual(['crypto:BTCUSDT'])

    item(fakeTray.menu?.template, 'Snooze this alert 15 min').click?.({ checked: false })
    await vi.waitFor(() => expect(app.received.at(-1)?.command).toBe('snoozeAlert'))
    expect(app.received.at(-1)?.params).toEqual({ id: 'r1', minutes: 15 })
    clock.advance(REFRESH_MS)
    expect(item(fakeTray.menu?.template, 'Snoozed for 15 min').enabled).toBe(false)

    // A newer fire replaces it, snoozable again.
    clock.advance(REFRESH_MS)
    app.fire({ ...alert, id: 'f2', ruleId: 'r2', message: 'ETHUSDT below 3,000', at: clock.now() })
    expect(labels()).toContain('Snooze this alert 15 min')
    expect(labels().filter((l) => l?.startsWith('Last alert')).length).toBe(1)
    expect(labels().find((l) => l?.startsWith('Last alert'))).toMatch(/ETHUSDT below 3,000$/)
  })

  it('cuts a long alert message to fit a menu line', async () => {
    const { fakeTray } = await startTray()
    clock.advance(REFRESH_MS)
    app.fire({ ...alert, message: `BTCUSDT ${'x'.repeat(200)}` })
    const label = fakeTray.menu?.template.find((i) => i.label?.startsWith('Last alert'))?.label
    expect(label?.endsWith('…')).toBe(true)
    expect(label!.length).toBeLessThanOrEqual('Last alert: '.length + 80)
  })
})

describe('alert notifications', () => {
  function start(win: FakeBrowserWindow) {
    return startAlertNotifier({
      app,
      settings: () => app.settings,
      showWindow: () => revealWindow(win as never),
      sendToRenderer: (event) => sendToWindow(win as never, event),
    })
  }

  it('raises an OS notification while the window is hidden and minimised', () => {
    const win = new FakeBrowserWindow({})
    win.minimized = true
    start(win)
    app.fire(alert)
    expect(FakeNotification.instances).toHaveLength(1)
    const n = FakeNotification.instances[0]!
    expect(n.shown).toBe(true)
    expect(n.options).toEqual({
      title: 'BTCUSDT 65,010.5',
      body: 'BTCUSDT crossed above 65,000',
      silent: false,
      actions: [{ type: 'button', text: 'Snooze 15 min' }],
    })
  })

  it("snoozes the rule for 15 minutes from the notification's action button", () => {
    start(new FakeBrowserWindow({}))
    app.fire(alert)
    FakeNotification.instances[0]!.emit('action', {}, 0)
    expect(app.received).toContainEqual({
      command: 'snoozeAlert',
      params: { id: 'r1', minutes: 15 },
    })
  })

  it('raises nothing for a fire in quiet hours (it is in the history and the tray)', () => {
    start(new FakeBrowserWindow({}))
    app.fire({ ...alert, quiet: true })
    expect(FakeNotification.instances).toHaveLength(0)
  })

  it('is silent when sounds are off, and says so when the alert fired while away', () => {
    app.settings = { ...app.settings, sounds: false }
    start(new FakeBrowserWindow({}))
    app.fire({ ...alert, whileAway: true })
    expect(FakeNotification.instances[0]!.options).toMatchObject({
      silent: true,
      body: 'While you were away: BTCUSDT crossed above 65,000',
    })
  })

  it('shows the window and asks the renderer to open the symbol when clicked', () => {
    const win = new FakeBrowserWindow({})
    win.minimized = true
    start(win)
    app.fire(alert)
    FakeNotification.instances[0]!.emit('click')
    expect(win.calls).toEqual(['restore', 'show', 'focus'])
    expect(win.webContents.sent.map((s) => s.payload)).toEqual([
      { type: 'openSymbol', key: 'crypto:BTCUSDT' },
    ])
  })

  it('stays quiet while alerts are paused', () => {
    app.settings = { ...app.settings, alertsPaused: true }
    start(new FakeBrowserWindow({}))
    app.fire(alert)
    expect(FakeNotification.instances).toHaveLength(0)
  })
})

import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron'
import type { AppHostApi } from '../app/host-api'
import type { Clock, TimerHandle } from '../core/clock'
import type { FiredAlert } from '../shared/alerts/alert'
import { SNOOZE_MINUTES } from './alert-notifier'
import type { HostSettings } from './host-settings'
import { formatTrayQuote, trayAlertLine, trayTitle, trayTooltip } from './tray-text'

/**
 * The tray icon on all three OSes: pinned prices in the tooltip (and the macOS menu-bar title),
 * a context menu with Show/Hide, the ticker strip, the pinned prices, the latest alert (open its
 * symbol, or snooze its rule: Windows and Linux notifications have no buttons, so this is where
 * a trader away from the window snoozes there), Pause alerts and Quit.
 *
 * Updates are throttled to one render per second (REFRESH_MS): quotes arrive up to 60 batches a
 * second and the OS tray APIs are slow and, on some Linux desktops, flicker on every change.
 *   idle --quotes/settings/window change, >=1 s since last render--> render now --> idle
 *   idle --change within 1 s of last render--> pending (one timer) --timer--> render --> idle
 *   pending --more changes--> pending (coalesced)
 */
export const REFRESH_MS = 1000

export interface TrayMenuModel {
  lines: string[]
  alertsPaused: boolean
  windowVisible: boolean
  stripOpen: boolean
  /** The latest fire this session, and whether its rule was snoozed from here since. */
  lastAlert: { line: string; snoozed: boolean } | null
}

export interface TrayActions {
  toggleWindow(): void
  toggleStrip(): void
  setAlertsPaused(paused: boolean): void
  openLastAlert(): void
  snoozeLastAlert(): void
  quit(): void
}

export function trayMenuTemplate(
  model: TrayMenuModel,
  actions: TrayActions,
): MenuItemConstructorOptions[] {
  const prices: MenuItemConstructorOptions[] =
    model.lines.length > 0
      ? model.lines.map((label) => ({ label, enabled: false }))
      : [{ label: 'No pinned symbols', enabled: false }]
  const last = model.lastAlert
  const lastAlert: MenuItemConstructorOptions[] = last
    ? [
        { type: 'separator' },
        { label: `Last alert: ${last.line}`, click: () => actions.openLastAlert() },
        last.snoozed
          ? { label: `Snoozed for ${SNOOZE_MINUTES} min`, enabled: false }
          : {
              label: `Snooze this alert ${SNOOZE_MINUTES} min`,
              click: () => actions.snoozeLastAlert(),
            },
      ]
    : []
  return [
    {
      label: model.windowVisible ? 'Hide Tickdesk' : 'Show Tickdesk',
      click: () => actions.toggleWindow(),
    },
    {
      label: 'Ticker strip',
      type: 'checkbox',
      checked: model.stripOpen,
      click: () => actions.toggleStrip(),
    },
    { type: 'separator' },
    ...prices,
    ...lastAlert,
    { type: 'separator' },
    {
      label: 'Pause alerts',
      type: 'checkbox',
      checked: model.alertsPaused,
      click: (item) => actions.setAlertsPaused(item.checked),
    },
    { type: 'separator' },
    { label: 'Quit Tickdesk', click: () => actions.quit() },
  ]
}

export interface TickerTrayDeps {
  app: Pick<AppHostApi, 'subscribe' | 'trayQuotes' | 'invoke' | 'onAlertFired'>
  settings: Pick<HostSettings, 'value' | 'onChange'>
  clock: Clock
  platform: NodeJS.Platform
  iconPath: string
  isWindowVisible(): boolean
  toggleWindow(): void
  toggleStrip(): void
  /** Brings the window back on this symbol (as clicking its notification does). */
  openSymbol(key: string): void
  quit(): void
}

export class TickerTray {
  private readonly tray: Tray
  private readonly unsubscribe: Array<() => void> = []
  private lastRenderAt = Number.NEGATIVE_INFINITY
  private pending: TimerHandle | null = null
  private shown = { tooltip: '', title: '', menu: '' }
  private lastAlert: { alert: FiredAlert; snoozed: boolean } | null = null

  constructor(private readonly deps: TickerTrayDeps) {
    this.tray = new Tray(nativeImage.createFromPath(deps.iconPath))
    // macOS opens the context menu on click by itself; elsewhere a click toggles the window.
    if (deps.platform !== 'darwin') this.tray.on('click', () => deps.toggleWindow())
    this.unsubscribe.push(
      deps.app.subscribe((event) => {
        if (event.type === 'quotes') this.requestRender()
      }),
      deps.settings.onChange(() => this.requestRender()),
      deps.app.onAlertFired((alert) => {
        this.lastAlert = { alert, snoozed: false }
        this.requestRender()
      }),
    )
    this.render()
  }

  /** Asks for a render; at most one per REFRESH_MS actually happens. */
  requestRender(): void {
    if (this.pending !== null) return
    const wait = this.lastRenderAt + REFRESH_MS - this.deps.clock.now()
    if (wait <= 0) return this.render()
    this.pending = this.deps.clock.setTimeout(() => {
      this.pending = null
      this.render()
    }, wait)
  }

  destroy(): void {
    this.deps.clock.clearTimeout(this.pending)
    this.pending = null
    for (const off of this.unsubscribe) off()
    this.tray.destroy()
  }

  private async snoozeLastAlert(): Promise<void> {
    const last = this.lastAlert
    if (!last) return
    const outcome = await this.deps.app.invoke('snoozeAlert', {
      id: last.alert.ruleId,
      minutes: SNOOZE_MINUTES,
    })
    // A rule deleted meanwhile cannot be snoozed: the item stays as it was.
    if (!outcome.ok || this.lastAlert !== last) return
    last.snoozed = true
    this.requestRender()
  }

  private render(): void {
    this.lastRenderAt = this.deps.clock.now()
    const quotes = this.deps.app.trayQuotes()
    const tooltip = trayTooltip(quotes)
    if (tooltip !== this.shown.tooltip) this.tray.setToolTip((this.shown.tooltip = tooltip))
    if (this.deps.platform === 'darwin') {
      const title = trayTitle(quotes)
      if (title !== this.shown.title) this.tray.setTitle((this.shown.title = title))
    }
    const model: TrayMenuModel = {
      lines: quotes.map(formatTrayQuote),
      alertsPaused: this.deps.settings.value.alertsPaused,
      windowVisible: this.deps.isWindowVisible(),
      stripOpen: this.deps.settings.value.strip.open,
      lastAlert: this.lastAlert && {
        line: trayAlertLine(this.lastAlert.alert),
        snoozed: this.lastAlert.snoozed,
      },
    }
    const menuKey = JSON.stringify(model)
    if (menuKey === this.shown.menu) return
    this.shown.menu = menuKey
    this.tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate(model, {
          toggleWindow: () => this.deps.toggleWindow(),
          toggleStrip: () => this.deps.toggleStrip(),
          quit: () => this.deps.quit(),
          openLastAlert: () => {
            if (this.lastAlert) this.deps.openSymbol(this.lastAlert.alert.key)
          },
          snoozeLastAlert: () => void this.snoozeLastAlert(),
          setAlertsPaused: (paused) => {
            void this.deps.app.invoke('updateSettings', { alertsPaused: paused })
          },
        }),
      ),
    )
  }
}

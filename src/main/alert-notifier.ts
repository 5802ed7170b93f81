import { Notification } from 'electron'
import type { AppHostApi } from '../app/host-api'
import type { BridgeEvent, FiredAlert } from '../shared'
import type { Settings } from '../shared/settings'
import { systemClock } from '../core/clock'
import { sinceWords } from '../shared/alerts/alert-owner'
import { formatPrice, traySymbol } from './tray-text'

/**
 * OS notifications for fired alerts, raised from main so they work with the window hidden,
 * minimised or closed to the tray (the renderer may not be running its timers at all then).
 * Clicking one brings the window back and asks the renderer to open that symbol.
 */
export interface AlertNotifierDeps {
  app: Pick<AppHostApi, 'onAlertFired' | 'invoke'>
  settings: () => Pick<Settings, 'sounds' | 'alertsPaused'>
  showWindow(): void
  sendToRenderer(event: BridgeEvent): void
}

/** How long the notification's Snooze button quiets the rule. */
export const SNOOZE_MINUTES = 15

export function alertNotification(
  alert: FiredAlert,
  sounds: boolean,
  now: number,
): {
  title: string
  body: string
  silent: boolean
  actions: Array<{ type: 'button'; text: string }>
} {
  // A late or repeated delivery says so: the trader must not take old news for a fresh crossing.
  const late = alert.late === true ? `Late (fired ${sinceWords(alert.at, now)}): ` : ''
  const again = alert.replayed === true ? '(again) ' : ''
  const body = `${late}${again}${alert.whileAway ? `While you were away: ${alert.message}` : alert.message}`
  return {
    title: `${traySymbol(alert.key)} ${formatPrice(alert.price)}`,
    body,
    silent: !sounds,
    // Electron shows action buttons where the OS has them (macOS); elsewhere the toast and the
    // alerts panel snooze.
    actions: [{ type: 'button', text: `Snooze ${SNOOZE_MINUTES} min` }],
  }
}

export function startAlertNotifier(deps: AlertNotifierDeps): () => void {
  // Electron drops a Notification's click handler once the object is garbage-collected: keep
  // each one referenced until it is clicked or closed.
  const live = new Set<Notification>()
  const unsubscribe = deps.app.onAlertFired((alert) => {
    const settings = deps.settings()
    // Quiet hours: the fire is in the history and the tray; nothing pops.
    if (settings.alertsPaused || alert.quiet === true || !Notification.isSupported()) return
    const notification = new Notification(
      alertNotification(alert, settings.sounds, systemClock.now()),
    )
    live.add(notification)
    notification.on('click', () => {
      live.delete(notification)
      deps.showWindow()
      deps.sendToRenderer({ type: 'openSymbol', key: alert.key })
    })
    notification.on('action', () => {
      live.delete(notification)
      void deps.app.invoke('snoozeAlert', { id: alert.ruleId, minutes: SNOOZE_MINUTES })
    })
    notification.on('close', () => live.delete(notification))
    notification.show()
  })
  return () => {
    unsubscribe()
    live.clear()
  }
}

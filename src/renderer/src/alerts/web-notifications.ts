import type { FiredAlert } from '../../../shared/alerts/alert'
import type { TickdeskApi } from '../../../shared/bridge'
import { symbolOfKey } from '../../../shared/markets/market'
import type { Settings } from '../../../shared/settings'

/**
 * Fired alerts as Web Notifications in the browser host, so a hidden tab still alerts. Electron
 * raises native notifications from main (src/main/alert-notifier.ts) and never uses this.
 * Permission is asked only from a user gesture (Settings, or creating an alert): browsers ignore
 * or penalise a request that comes out of nowhere.
 */
export type NotificationState = NotificationPermission | 'unsupported'

/** The browser's Notification constructor, or null where there is none (jsdom, old engines). */
export type NotificationApi = Pick<typeof Notification, 'permission' | 'requestPermission'> &
  (new (title: string, options?: NotificationOptions) => Notification)

function defaultApi(): NotificationApi | null {
  return typeof Notification === 'function' ? (Notification as NotificationApi) : null
}

export function notificationState(api: NotificationApi | null = defaultApi()): NotificationState {
  return api === null ? 'unsupported' : api.permission
}

/** Asks once, from a user gesture; an answer already given is kept. */
export async function askNotificationPermission(
  api: NotificationApi | null = defaultApi(),
): Promise<NotificationState> {
  if (api === null) return 'unsupported'
  if (api.permission !== 'default') return api.permission
  return api.requestPermission()
}

export function alertNotice(alert: FiredAlert): { title: string; body: string } {
  const symbol = symbolOfKey(alert.key)
  const body = alert.whileAway ? `While you were away: ${alert.message}` : alert.message
  return { title: `${symbol} alert`, body }
}

/**
 * Shows a notification for every fired alert while permission is granted. The alert id is the
 * tag, so two open Tickdesk tabs raise one notification, not two. A click focuses the tab and
 * opens the symbol. Returns the unsubscribe.
 */
export function startWebNotifications(
  bridge: Pick<TickdeskApi, 'subscribe'>,
  opts: {
    settings: () => Pick<Settings, 'sounds'>
    onOpen: (key: string) => void
    api?: NotificationApi | null
  },
): () => void {
  const api = opts.api === undefined ? defaultApi() : opts.api
  return bridge.subscribe((event) => {
    if (event.type !== 'alertFired' || api === null || api.permission !== 'granted') return
    // Quiet hours: the fire is in the history and the toast, but nothing pops.
    if (event.alert.quiet === true) return
    const { title, body } = alertNotice(event.alert)
    const n = new api(title, {
      body,
      tag: event.alert.id,
      silent: !opts.settings().sounds,
      icon: iconUrl(),
    })
    n.onclick = () => {
      window.focus()
      opts.onOpen(event.alert.key)
      n.close()
    }
  })
}

/** The page's own icon (the favicon link), so the notification carries the app icon. */
function iconUrl(): string | undefined {
  if (typeof document === 'undefined') return undefined
  return document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href
}

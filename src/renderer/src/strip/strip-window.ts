import type { TickdeskApi } from '../../../shared/bridge'
import type { Settings } from '../../../shared/settings'

/**
 * Which page the renderer shows: the main window, or the ticker strip. Electron loads the same
 * index.html with ?view=strip into its strip window; the browser host serves it at /strip.
 */
export type ViewMode = 'main' | 'strip'

export function viewMode(location: { pathname: string; search: string }): ViewMode {
  if (new URLSearchParams(location.search).get('view') === 'strip') return 'strip'
  return location.pathname.replace(/\/+$/, '').endsWith('/strip') ? 'strip' : 'main'
}

/** The browser host's strip address: /strip with the page's own query (its token). */
export function stripAddress(location: { origin: string; search: string }): string {
  return `${location.origin}/strip${location.search}`
}

/**
 * Shows or hides the strip. Electron: the strip window follows settings.strip.open (main opens
 * and closes it). Browser host: a small popup window at /strip (a page cannot open a window for
 * another page, so there "open" means a popup the trader can place on a second screen).
 */
export async function toggleStrip(
  api: TickdeskApi,
  settings: Settings,
  open: (url: string) => void = (url) =>
    void window.open(url, 'tickdesk-strip', 'popup=yes,width=980,height=48'),
): Promise<void> {
  if (api.host === 'electron') {
    await api.invoke('updateSettings', { strip: { open: !settings.strip.open } })
    return
  }
  open(stripAddress(window.location))
}

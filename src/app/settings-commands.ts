import { TickdeskError } from '../core/errors'
import { mergeSettings, SettingsSchema } from '../shared/settings'
import { urlProblem } from '../shared/security/url-policy'
import type { MarketAccess, SettingsAccess } from './command-context'
import type { Handlers } from './command-handler'
import { canonicalKey } from './watchlists/watchlist-book'

/** Settings, the key, Test connection, notices and the log folder. */
export const SETTINGS_HANDLERS: Handlers<
  | 'updateSettings'
  | 'setApiKey'
  | 'clearApiKey'
  | 'testConnection'
  | 'dismissNotice'
  | 'openLogFolder',
  SettingsAccess & Pick<MarketAccess, 'market'>
> = {
  updateSettings: async (app, p) => {
    const next = SettingsSchema.parse(mergeSettings(app.settings, p))
    next.pinned = next.pinned.map(canonicalKey)
    const refused = next.baseUrl === '' ? null : urlProblem(next.baseUrl, 'service')
    if (refused !== null) {
      const why = refused.charAt(0).toUpperCase() + refused.slice(1)
      throw new TickdeskError({ code: 'INVALID_INPUT', message: `${why}.` })
    }
    await app.setSettings(next)
    return next
  },
  setApiKey: (app, p) => app.setApiKey(p.apiKey),
  clearApiKey: (app) => app.clearApiKey(),
  // Through the running engine: its budget, its socket's state, never a second socket.
  testConnection: (app) => app.market.testConnection(),
  dismissNotice: (app, p) => {
    app.dismissNotice(p.id)
    return null
  },
  openLogFolder: async (app) => {
    const folder = app.logFolder
    if (!folder)
      throw new TickdeskError({ code: 'NOT_SUPPORTED', message: 'This host keeps no log' })
    // Showing the folder is a courtesy: if the OS refuses, the path is still there to copy.
    const opened = await folder.open().catch(() => false)
    return { path: folder.path, opened }
  },
}

import { randomUUID } from 'node:crypto'
import { isTickdeskError, TickdeskError } from '../core/errors'
import { AlertRuleInputSchema, type AlertRule } from '../shared/alert'
import {
  COMMANDS,
  isCommandName,
  type CommandName,
  type CommandOutcome,
  type CommandResult,
} from '../shared/bridge'
import { mergeSettings, SettingsSchema } from '../shared/settings'
import type { AppService } from './app-service'
import { errorText } from './error-text'
import type { Handler, Handlers, Parsed } from './command-handler'
import { DESK_HANDLERS } from './desk-commands'
import { canonicalKey, WatchlistBook } from './watchlist-book'
import { exportWatchlist, importWatchlists } from './watchlist-io'

/** One handler per bridge command; params arrive already validated against the contract. */
const HANDLERS: Handlers<CommandName> = {
  ...DESK_HANDLERS,
  getSnapshot: (app) => app.snapshot(),
  createWatchlist: async (app, p) => {
    const { state, created } = WatchlistBook.create(app.lists, p.name)
    await app.setLists(state)
    return created
  },
  renameWatchlist: async (app, p) => {
    await app.setLists(WatchlistBook.rename(app.lists, p.id, p.name))
    return null
  },
  deleteWatchlist: async (app, p) => {
    await app.setLists(WatchlistBook.remove(app.lists, p.id))
    return null
  },
  reorderWatchlists: async (app, p) => {
    await app.setLists(WatchlistBook.reorder(app.lists, p.ids))
    return null
  },
  setActiveWatchlist: async (app, p) => {
    await app.setLists(WatchlistBook.setActive(app.lists, p.id))
    return null
  },
  removeSymbol: async (app, p) => {
    await app.setLists(WatchlistBook.removeSymbol(app.lists, p.id, p.key))
    return null
  },
  moveSymbol: async (app, p) => {
    await app.setLists(WatchlistBook.moveSymbol(app.lists, p.id, p.key, p.toIndex))
    return null
  },
  importWatchlists: async (app, p) => {
    const { watchlists, skipped } = importWatchlists(p.format, p.text)
    if (app.lists.watchlists.length + watchlists.length > 50) {
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message: 'Importing these would make more than 50 watchlists',
      })
    }
    await app.setLists({
      watchlists: [...app.lists.watchlists, ...watchlists],
      activeId: watchlists[0]?.id ?? app.lists.activeId,
    })
    if (skipped.length)
      app.addNotice(
        'warning',
        'INVALID_INPUT',
        `Skipped ${skipped.length} unreadable symbol(s): ${skipped.slice(0, 5).join(', ')}`,
      )
    return watchlists
  },
  exportWatchlist: (app, p) => {
    const list = app.lists.watchlists.find((w) => w.id === p.id)
    if (!list)
      throw new TickdeskError({ code: 'NOT_FOUND', message: `No watchlist with id ${p.id}` })
    return exportWatchlist(list, p.format)
  },
  setVisibleSymbols: (app, p) => {
    app.setVisible(p.keys)
    return null
  },
  getCandles: (app, p) => app.feed.engine.getCandles(canonicalKey(p.key), p.interval, p.limit),
  addAlert: async (app, p) => {
    const input = AlertRuleInputSchema.parse({ ...p, key: canonicalKey(p.key) })
    const rule: AlertRule = {
      ...input,
      id: randomUUID(),
      createdAt: app.clock.now(),
      enabled: true,
    }
    await app.setRules([...app.rules, rule])
    return rule
  },
  removeAlert: async (app, p) => {
    await app.setRules(app.rules.filter((r) => r.id !== p.id))
    return null
  },
  setAlertEnabled: async (app, p) => {
    if (!app.rules.some((r) => r.id === p.id))
      throw new TickdeskError({ code: 'NOT_FOUND', message: 'No such alert' })
    await app.setRules(app.rules.map((r) => (r.id === p.id ? { ...r, enabled: p.enabled } : r)))
    return null
  },
  clearAlertHistory: async (app) => {
    app.alerts.clearHistory()
    app.emitAlerts()
    await app.persist(() => app.stores.alertHistory.save([]))
    return null
  },
  updateSettings: async (app, p) => {
    const next = SettingsSchema.parse(mergeSettings(app.settings, p))
    next.pinned = next.pinned.map(canonicalKey)
    if (next.baseUrl !== '' && !isServiceUrl(next.baseUrl)) {
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message:
          'The base URL must start with https:// (or http:// for a local service) and hold no user name or password',
      })
    }
    await app.setSettings(next)
    return next
  },
  setApiKey: (app, p) => app.setApiKey(p.apiKey),
  clearApiKey: (app) => app.clearApiKey(),
  // Through the running engine: its budget, its socket's state, never a second socket.
  testConnection: (app) => app.feed.engine.testConnection(),
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

/** The bridge's single entry: unknown commands and invalid params change nothing. */
export async function invokeCommand(
  app: AppService,
  command: string,
  params: unknown,
): Promise<CommandOutcome<unknown>> {
  if (!isCommandName(command)) {
    return {
      ok: false,
      error: { code: 'INVALID_INPUT', message: `Unknown command ${command.slice(0, 64)}` },
    }
  }
  const parsed = COMMANDS[command].params.safeParse(params ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || 'params'
    return {
      ok: false,
      error: { code: 'INVALID_INPUT', message: `${where}: ${issue?.message ?? 'invalid'}` },
    }
  }
  try {
    return { ok: true, result: await runCommand(app, command, parsed.data as never) }
  } catch (e) {
    if (isTickdeskError(e))
      return { ok: false, error: { code: String(e.code), message: e.message } }
    app.logger.log('error', 'command failed', { command, error: errorText(e) })
    return { ok: false, error: { code: 'INTERNAL', message: errorText(e) } }
  }
}

/**
 * A base URL the engine may use: http(s), no whitespace, and no user:password@ part, which would
 * put a secret (often the key itself) in settings.json and on the bridge (found by test/faults).
 */
function isServiceUrl(raw: string): boolean {
  if (!/^https?:\/\/[^\s]+$/.test(raw)) return false
  try {
    const url = new URL(raw)
    return url.username === '' && url.password === ''
  } catch {
    return false
  }
}

async function runCommand<N extends CommandName>(
  app: AppService,
  name: N,
  params: Parsed<N>,
): Promise<CommandResult<N>> {
  const handler = HANDLERS[name] as Handler<N>
  return handler(app, params)
}

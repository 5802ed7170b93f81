import { TickdeskError } from '../../core/errors'
import { moveLevel } from '../../shared/alerts/alert-level'
import { volumeNote } from '../../shared/alerts/alert-volume'
import { buildAlertRule } from './alert-rules'
import { snoozeRule } from './alert-snooze'
import type { AlertAccess } from '../command-context'
import type { Handlers } from '../command-handler'

/**
 * Alert rules and their history. Removing a rule that is already gone succeeds (what the trader
 * asked for holds); switching one that does not exist is NOT_FOUND (nothing was switched).
 */
export const ALERT_HANDLERS: Handlers<
  | 'addAlert'
  | 'removeAlert'
  | 'setAlertEnabled'
  | 'moveAlertLevel'
  | 'snoozeAlert'
  | 'clearAlertHistory'
  | 'retryUndelivered'
  | 'dropUndelivered',
  AlertAccess
> = {
  addAlert: async (app, p) => {
    const rule = {
      ...buildAlertRule(p, app.now(), { lists: app.lists.watchlists }),
      service: app.alertService(),
    }
    if (rule.listId === undefined) {
      const listed = app.lists.watchlists.some((l) => l.symbols.includes(rule.key))
      if (!listed && !app.knowsSymbol(rule.key))
        throw new TickdeskError({
          code: 'UNKNOWN_SYMBOL',
          message: `The alert was not added: ${rule.key} is not a symbol Tickdesk knows (not in the catalogue, never confirmed by the service); add it to a list first`,
        })
      const quote = app.quoteOf(rule.key)
      const note =
        rule.condition.kind === 'volume' && quote !== undefined && quote.last !== null
          ? volumeNote(rule.key, quote.volume)
          : null
      if (note !== null && quote?.volume === null)
        throw new TickdeskError({
          code: 'INVALID_INPUT',
          message: `The alert was not added: ${note}`,
        })
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
  // The rule keeps its id and history and is armed afresh at the new level (alert-engine.ts), as
  // a chart's alert line is: a once-alert dragged after it fired can fire again.
  moveAlertLevel: async (app, p) => {
    const rule = app.rules.find((r) => r.id === p.id)
    if (rule === undefined) throw new TickdeskError({ code: 'NOT_FOUND', message: 'No such alert' })
    const moved = moveLevel(rule.condition, p.level, p.price)
    if (!moved.ok)
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message: `The alert was not moved: ${moved.message}`,
      })
    const next = { ...rule, condition: moved.condition }
    await app.setRules(app.rules.map((r) => (r.id === p.id ? next : r)))
    return next
  },
  snoozeAlert: async (app, p) => {
    await app.setRules(snoozeRule(app.rules, p.id, p.minutes, app.now()))
    return null
  },
  clearAlertHistory: async (app) => {
    await app.clearAlertHistory()
    return null
  },
  retryUndelivered: async (app, p) => {
    if (!(await app.retryUndelivered(p.fireId))) throw noUndelivered()
    return null
  },
  dropUndelivered: async (app, p) => {
    if (!(await app.dropUndelivered(p.fireId))) throw noUndelivered()
    return null
  },
}

function noUndelivered(): TickdeskError {
  return new TickdeskError({
    code: 'NOT_FOUND',
    message: 'No such undelivered alert (it was delivered or dropped meanwhile)',
  })
}

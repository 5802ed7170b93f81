import { planBudget } from '../core/budget-preview'
import { TickdeskError } from '../core/errors'
import type { AppService } from './app-service'
import { previewBudget, type BudgetHost } from './budget-line'
import type { Handlers } from './command-handler'
import { addSymbols, type AdderHost } from './symbol-adder'
import { canonicalKey } from './watchlist-book'

/**
 * The desk's commands (issue 13): search by name, adding one symbol or a pasted list with a
 * check of unknown ones, the plan-budget preview, and opening a symbol in the main window.
 */
export const DESK_HANDLERS: Handlers<
  | 'suggestSymbols'
  | 'searchInstruments'
  | 'addSymbol'
  | 'addSymbols'
  | 'previewBudget'
  | 'openSymbol'
> = {
  suggestSymbols: (app, p) => app.catalogue.search(p.query, 10).map((m) => m.key),
  searchInstruments: (app, p) => app.catalogue.search(p.query, p.limit ?? 12),
  addSymbol: async (app, p) => {
    const key = canonicalKey(p.key)
    const report = await app.addQueue.run(() => addSymbols(adderHost(app), p.id, [key]))
    const refused = report.rejected[0]
    if (refused) throw new TickdeskError({ code: refused.code, message: refused.message })
    return null
  },
  addSymbols: (app, p) => app.addQueue.run(() => addSymbols(adderHost(app), p.id, p.inputs)),
  previewBudget: (app, p) => {
    const preview = previewBudget(budgetHost(app), p.id, p.add ?? [])
    if (preview === null)
      throw new TickdeskError({ code: 'NOT_FOUND', message: `No watchlist with id ${p.id}` })
    return preview
  },
  openSymbol: (app, p) => {
    app.emit({ type: 'openSymbol', key: canonicalKey(p.key) })
    return null
  },
}

function adderHost(app: AppService): AdderHost {
  return {
    get lists() {
      return app.lists
    },
    setLists: (next) => app.setLists(next),
    catalogue: app.catalogue,
    probe: (key) => app.feed.engine.probeSymbol(key),
    saveConfirmed: (keys) => app.persist(() => app.stores.instruments.save(keys)),
  }
}

function budgetHost(app: AppService): BudgetHost {
  return {
    lists: app.lists,
    pinned: app.settings.pinned,
    alerted: app.alerts.watchedKeys(),
    catalogue: app.catalogue,
    plan: app.feed.config.plan,
    demo: app.feed.config.demo,
    symbolStatuses: () => app.feed.engine.symbolStatuses(),
    budgetPlan: (watched, blockedMarkets) =>
      planBudget({ ...app.feed.engine.budgetRules(), watched, blockedMarkets }),
  }
}

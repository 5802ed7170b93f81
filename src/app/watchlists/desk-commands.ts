import { planBudget } from '../../core/feed/budget-preview'
import { TickdeskError } from '../../core/errors'
import { previewBudget, type BudgetHost } from '../feed/budget-line'
import type { DeskAccess } from '../command-context'
import type { Handlers } from '../command-handler'
import { addSymbols, type AdderHost } from './symbol-adder'
import { canonicalKey } from './watchlist-book'

/**
 * The desk's commands: search by name, adding symbols (one or a pasted list) with a
 * check of unknown ones, the plan-budget preview, opening a symbol in the main window; and what
 * the grid and the chart ask of the market: visible rows, the beat of the page's price frames
 * (quote batches are timed to it) and candles.
 */
export const DESK_HANDLERS: Handlers<
  | 'searchInstruments'
  | 'addSymbols'
  | 'previewBudget'
  | 'openSymbol'
  | 'setVisibleSymbols'
  | 'reportFrameBeat'
  | 'getCandles'
  | 'getSparkHistory',
  DeskAccess
> = {
  searchInstruments: (app, p) => app.catalogue.search(p.query, p.limit ?? 12),
  addSymbols: (app, p) => app.addQueue.run(() => addSymbols(adderHost(app), p.id, p.inputs)),
  previewBudget: (app, p) => {
    const preview = previewBudget(budgetHost(app), p.id, p.add ?? [])
    if (preview === null)
      throw new TickdeskError({ code: 'NOT_FOUND', message: `No watchlist with id ${p.id}` })
    return preview
  },
  openSymbol: (app, p) => {
    app.openSymbol(canonicalKey(p.key))
    return null
  },
  setVisibleSymbols: (app, p) => {
    app.setVisible(p.keys)
    return null
  },
  reportFrameBeat: (app, p) => {
    app.frameBeat.report(p.periodMs, p.atMs)
    return null
  },
  getCandles: (app, p) => app.market.getCandles(canonicalKey(p.key), p.interval, p.limit),
  getSparkHistory: (app, p) => app.market.sparkHistory(p.keys.map(canonicalKey)),
}

function adderHost(app: DeskAccess): AdderHost {
  return {
    get lists() {
      return app.lists
    },
    setLists: (next) => app.setLists(next),
    catalogue: app.catalogue,
    probe: (key) => app.market.probeSymbol(key),
    adopt: (update) => app.market.adoptProbedQuote(update),
    saveConfirmed: (keys) => app.saveConfirmed(keys),
  }
}

function budgetHost(app: DeskAccess): BudgetHost {
  const market = app.market
  return {
    lists: app.lists,
    pinned: app.settings.pinned,
    alerted: app.alertedKeys(),
    catalogue: app.catalogue,
    book: app.bookKeys(),
    plan: app.feedPlan.plan,
    demo: app.feedPlan.demo,
    symbolStatuses: () => market.symbolStatuses(),
    budgetPlan: (watched, blockedMarkets, slow) =>
      planBudget({ ...market.budgetRules(), watched, blockedMarkets, slow }),
  }
}

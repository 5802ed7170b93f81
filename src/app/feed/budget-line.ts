import type { BudgetPlan } from '../../core/feed/budget-preview'
import { SLOW_POLL_MS } from '../../core/poll/poll-queue'
import { QUIET_POLL_MS } from '../../core/poll/session-pacing'
import { SLOW_POLL_SEC, type BudgetPreview, type BudgetWarning } from '../../shared/budget'
import {
  PLAN_LIMITS,
  parseSymbolKey,
  type Market,
  type Plan,
  type SymbolKey,
} from '../../shared/markets/market'
import type { SymbolStatus } from '../../shared/quote'
import type { InstrumentCatalogue } from '../catalogue/instrument-catalogue'
import { budgetReasons } from './budget-reasons'
import { watchPriorities } from '../watchlists/watch-priorities'
import { WatchlistBook, type WatchlistState } from '../watchlists/watchlist-book'

/**
 * The budget line of one watchlist ("12 streamed · 48 polled every ~6 s · 21/27 req/min"): the
 * engine's plan (core/feed/budget-preview.ts) for everything the app would watch, with this list on
 * screen (visible symbols stream first), counted for this list. With `add`, the same for the list
 * after those symbols join it, and warnings when that would slow polling past SLOW_POLL_SEC or
 * reach into a market the key was refused. `why` says, group by group, why this list's symbols
 * stream or are polled (budget-reasons.ts).
 */
export interface BudgetHost {
  readonly lists: WatchlistState
  readonly pinned: readonly string[]
  readonly alerted: readonly string[]
  readonly catalogue: InstrumentCatalogue
  /** Lot symbols and the FX pairs converting them (slow helpers), watched besides the lists. */
  readonly book?: { readonly lots: readonly SymbolKey[]; readonly slow: readonly SymbolKey[] }
  readonly plan: Plan
  readonly demo: boolean
  symbolStatuses(): SymbolStatus[]
  budgetPlan(
    watched: ReadonlyArray<{ key: SymbolKey; priority: number }>,
    blocked: ReadonlySet<Market>,
    slow: ReadonlySet<SymbolKey>,
  ): BudgetPlan
}

type Watchlist = WatchlistState['watchlists'][number]

const REFUSED = new Set(['MARKET_NOT_ENABLED', 'API_KEY_SCOPE_DENIED'])

export function blockedMarkets(statuses: readonly SymbolStatus[]): Map<Market, string> {
  const out = new Map<Market, string>()
  for (const s of statuses) {
    const market = parseSymbolKey(s.key)?.market
    if (market && REFUSED.has(s.code) && !out.has(market)) out.set(market, s.code)
  }
  return out
}

/** The symbols an add would bring in: resolved, not yet on the list, each once. */
function resolveAdds(host: BudgetHost, list: Watchlist, inputs: readonly string[]): SymbolKey[] {
  const add: SymbolKey[] = []
  for (const input of inputs) {
    const r = host.catalogue.resolve(input)
    if (r.ok && !list.symbols.includes(r.key) && !add.includes(r.key)) add.push(r.key)
  }
  return add
}

interface PrioritisedPlan {
  plan: BudgetPlan
  priorities: Map<string, number>
}

/** The budget over every symbol the app would watch with `extra` added to this list. */
function planWith(
  host: BudgetHost,
  list: Watchlist,
  blocked: ReadonlySet<Market>,
  extra: SymbolKey[],
): PrioritisedPlan {
  const book = host.book ?? { lots: [], slow: [] }
  const all = [
    ...new Set([
      ...WatchlistBook.allSymbols(host.lists),
      ...extra,
      ...host.alerted,
      ...book.lots,
      ...book.slow,
    ]),
  ]
  const priorities = watchPriorities({
    pinned: host.pinned,
    alerted: host.alerted,
    visible: [...list.symbols, ...extra],
    listed: all,
  })
  const plan = host.budgetPlan(
    all.map((key) => ({ key, priority: priorities.get(key) ?? 0 })),
    blocked,
    new Set(book.slow),
  )
  return { plan, priorities }
}

const everySec = (p: BudgetPlan): number | null =>
  p.pollEveryMs === null ? null : Math.max(1, Math.round(p.pollEveryMs / 1000))

/** Polling slower than SLOW_POLL_SEC: for the list as it is, or because the add slows it. */
function slowPollWarning(
  afterSec: number | null,
  add: SymbolKey[],
  before: () => BudgetPlan,
): BudgetWarning | null {
  if (afterSec === null || afterSec <= SLOW_POLL_SEC) return null
  if (add.length === 0) {
    return {
      code: 'POLL_SLOW',
      message: `Polled symbols refresh only every ~${afterSec} s on this plan (over ${SLOW_POLL_SEC} s): remove some, or move to a larger plan`,
    }
  }
  const beforeSec = everySec(before())
  if (beforeSec !== null && afterSec <= beforeSec) return null
  return {
    code: 'POLL_SLOW',
    message: `Adding ${add.length === 1 ? add[0] : `${add.length} symbols`} would slow polling to every ~${afterSec} s (over ${SLOW_POLL_SEC} s)`,
  }
}

/** One warning per market of `keys` the plan or key refuses. */
function marketWarnings(keys: readonly SymbolKey[], refused: Map<Market, string>): BudgetWarning[] {
  const lacking = new Map<Market, string>()
  for (const key of keys) {
    const market = parseSymbolKey(key)?.market
    const code = market ? refused.get(market) : undefined
    if (market && code) lacking.set(market, code)
  }
  return [...lacking].map(([market, code]) => ({
    code: 'MARKET_NOT_IN_PLAN',
    message: `Your plan or key lacks ${market} (${code}): its symbols show "Not in plan" and get no prices`,
  }))
}

export function previewBudget(
  host: BudgetHost,
  listId: string,
  addInputs: readonly string[] = [],
): BudgetPreview | null {
  const list = host.lists.watchlists.find((w) => w.id === listId)
  if (!list) return null
  const add = resolveAdds(host, list, addInputs)
  const refused = blockedMarkets(host.symbolStatuses())
  const blocked = new Set(refused.keys())
  const { plan: after, priorities } = planWith(host, list, blocked, add)
  const mine = new Set([...list.symbols, ...add])
  const count = (keys: SymbolKey[]): number => keys.filter((k) => mine.has(k)).length
  const afterSec = everySec(after)
  const slow = slowPollWarning(afterSec, add, () => planWith(host, list, blocked, []).plan)
  const warnings: BudgetWarning[] = [
    ...(slow ? [slow] : []),
    ...marketWarnings(add.length > 0 ? add : list.symbols, refused),
  ]
  return {
    plan: host.plan,
    demo: host.demo,
    symbols: mine.size,
    streamed: count(after.streamed),
    polled: count(after.polled),
    quiet: count(after.quiet),
    quietEverySec: QUIET_POLL_MS / 1000,
    fxPairs: after.slow.length,
    fxEverySec: SLOW_POLL_MS / 1000,
    blocked: count(after.blocked),
    pollEverySec: afterSec,
    requestsPerMinute: after.requestsPerMinute,
    perMinute: after.perMinute,
    streamUsed: after.streamed.length,
    streamCap: PLAN_LIMITS[host.plan].wsSymbols,
    warnings,
    why: budgetReasons(after, mine, priorities),
  }
}

import { existsSync } from 'node:fs'
import type { Fence } from '../../core/persistence/fence'
import type { StoreProblem } from '../../core/persistence/json-store'
import type { DataStores } from '../../core/persistence/stores'
import type { AlertRule, AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import { parentRuleId } from '../../shared/alerts/alert-list'
import type { Watchlist } from '../../shared/watchlist'

/**
 * What the alert loop reads at its start and writes at each save, in the data folder:
 *   alerts.json         the rules (anyone edits them; the loop only reads)
 *   watchlists.json     the lists that list-wide rules follow
 *   alert-states.json   each rule's state: the owner's alone, every save fenced
 *   alert-history.json  the fires: the owner's alone, every save fenced
 * A folder from before states had a file of their own has them in alerts.json: read from there
 * until the first save writes alert-states.json.
 */

export type LoopStores = Pick<
  DataStores,
  'dir' | 'alerts' | 'alertStates' | 'alertHistory' | 'watchlists'
>

export interface LoopFiles {
  rules: AlertRule[]
  lists: Watchlist[]
  states: AlertRuleState[]
  history: FiredAlert[]
}

/** Reads the four files; a damaged one is reported (moved aside by its store) and read as empty. */
export async function readLoopFiles(
  stores: LoopStores,
  report: (p: StoreProblem | null) => void,
): Promise<LoopFiles> {
  const file = await stores.alerts.loadReporting(report)
  const lists = await stores.watchlists.loadReporting(report)
  const history = await stores.alertHistory.loadReporting(report)
  const states = existsSync(stores.alertStates.path)
    ? await stores.alertStates.loadReporting(report)
    : file.states
  return { rules: file.rules, lists: lists.watchlists, states, history }
}

/**
 * States to save: the loop's own, and those of rules it does not judge (another service's) as
 * it read them, while their rule exists; a removed rule's state goes with it.
 */
export function statesToSave(
  judged: readonly AlertRuleState[],
  others: ReadonlyMap<string, AlertRuleState>,
  rules: readonly AlertRule[],
): AlertRuleState[] {
  const kept = new Set(rules.map((r) => r.id))
  const mine = new Set(judged.map((s) => s.ruleId))
  const out = judged.slice()
  for (const [id, state] of others) if (!mine.has(id) && kept.has(parentRuleId(id))) out.push(state)
  return out
}

/** Both owner files, each committed only while `fence` holds; the first refusal is thrown. */
export async function writeLoopFiles(
  stores: LoopStores,
  fence: Fence,
  s: { states: AlertRuleState[]; history: FiredAlert[] },
): Promise<void> {
  const results = await Promise.allSettled([
    stores.alertStates.save(s.states, fence),
    stores.alertHistory.save(s.history, fence),
  ])
  const failed = results.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
}

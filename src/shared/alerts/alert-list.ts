import type { AlertCondition, AlertRule, AlertRuleState } from './alert'
import type { Watchlist } from '../watchlist'

/**
 * Watchlist-wide rules ("any symbol on Macro moves 3% in 15 min"). A list rule is stored once;
 * every host evaluates it as one concrete rule per symbol on the list, with its own id
 * (`<ruleId>/<key>`), state and arming, so each symbol fires once per arming and a symbol added
 * to the list later is watched from then on. Shared so the CLI and the renderer describe a list
 * rule, and count its fires, the same way.
 */

/**
 * Conditions that make sense for every symbol of a list alike (no price levels). A spread, only
 * in basis points of the mid (LIST_SPREAD_UNIT): symbols at different prices compare in bps.
 */
export const LIST_CONDITIONS: ReadonlyArray<AlertCondition['kind']> = [
  'movePct',
  'dayChangePct',
  'spread',
]
export const LIST_SPREAD_UNIT = 'bps'

/** Why a condition cannot watch a whole list, in the trader's words; null when it can. */
export function listConditionProblem(condition: AlertCondition): string | null {
  if (!LIST_CONDITIONS.includes(condition.kind))
    return 'a list alert takes a move in N minutes, a day change % or a spread in bp'
  if (condition.kind === 'spread' && condition.unit !== LIST_SPREAD_UNIT)
    return 'a list spread alert is in bp of the mid (symbols at different prices compare only in bp)'
  return null
}

export function listRuleKey(listId: string): string {
  return `list:${listId}`
}

export function childRuleId(ruleId: string, key: string): string {
  return `${ruleId}/${key}`
}

/** The stored rule a state or a fire belongs to (a list rule's child id names its parent). */
export function parentRuleId(ruleId: string): string {
  const at = ruleId.indexOf('/')
  return at < 0 ? ruleId : ruleId.slice(0, at)
}

/** The rules as evaluated: a list rule becomes one rule per symbol now on its list. */
export function expandRules(
  rules: readonly AlertRule[],
  members: (listId: string) => readonly string[] | undefined,
): AlertRule[] {
  const out: AlertRule[] = []
  for (const rule of rules) {
    if (rule.listId === undefined) {
      out.push(rule)
      continue
    }
    for (const key of new Set(members(rule.listId) ?? []))
      out.push({ ...rule, id: childRuleId(rule.id, key), key })
  }
  return out
}

/** What a rule applies to, in the words every host shows: the symbol, or `any on "Macro"`. */
export function ruleTarget(rule: Pick<AlertRule, 'key' | 'listId'>, lists: readonly Watchlist[]) {
  if (rule.listId === undefined) return rule.key
  const list = lists.find((l) => l.id === rule.listId)
  return list ? `any on "${list.name}"` : 'any on a deleted list'
}

/** A list rule's symbols and how many of them fired in their current arming. */
export function listRuleCounts(
  ruleId: string,
  states: readonly AlertRuleState[],
): { symbols: number; triggered: number } {
  const prefix = `${ruleId}/`
  let symbols = 0
  let triggered = 0
  for (const s of states) {
    if (!s.ruleId.startsWith(prefix)) continue
    symbols++
    if (s.status === 'triggered') triggered++
  }
  return { symbols, triggered }
}

/** A list named by the trader: by id, or by name (case-insensitive). */
export function findList(lists: readonly Watchlist[], nameOrId: string): Watchlist | undefined {
  const wanted = nameOrId.trim().toLowerCase()
  return lists.find((l) => l.id === nameOrId) ?? lists.find((l) => l.name.toLowerCase() === wanted)
}

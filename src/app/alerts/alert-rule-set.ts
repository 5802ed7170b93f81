import { barsNeeded } from '../../core/alerts/alert-ma'
import type { BarNeed } from '../../core/bars/bar-backfill'
import type { AlertRule } from '../../shared/alerts/alert'
import { expandRules } from '../../shared/alerts/alert-list'
import type { SymbolKey } from '../../shared/markets/market'
import type { Watchlist } from '../../shared/watchlist'

/**
 * The rules a process judges, as concrete rules: list rules expanded to the symbols on their list
 * now, then kept only where `judges` says (the process's service; a host's own filter). The one
 * place the alert loop and a standing-by host read the stored rules through.
 */
export function judgedRules(
  rules: readonly AlertRule[],
  lists: readonly Watchlist[],
  judges: (rule: AlertRule) => boolean,
): AlertRule[] {
  const members = new Map(lists.map((l) => [l.id, l.symbols]))
  return expandRules(
    rules.filter((r) => judges(r)),
    (id) => members.get(id),
  )
}

/** The bars moving-average rules need before they can fire. */
export function barNeeds(rules: readonly AlertRule[]): BarNeed[] {
  const needs: BarNeed[] = []
  for (const r of rules) {
    const c = r.condition
    if (c.kind === 'maCross' && r.enabled)
      needs.push({ key: r.key, interval: c.interval, count: barsNeeded(c.ma, c.period) })
  }
  return needs
}

/** Symbols the rules judged here watch, whether or not this process runs them now. */
export function ruleKeys(rules: readonly AlertRule[]): SymbolKey[] {
  return [...new Set(rules.filter((r) => r.enabled).map((r) => r.key))]
}

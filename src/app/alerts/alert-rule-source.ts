import type { AlertsFile, DataStores } from '../../core/persistence/stores'
import type { AlertRule, AlertRuleState } from '../../shared/alerts/alert'
import { parentRuleId } from '../../shared/alerts/alert-list'
import { mergeRules } from './alert-rules-merge'

/**
 * Where an alert loop's rules come from, which decides what it writes back to alerts.json at a
 * save (the strategy that replaced the `ownsRules` flag):
 *
 * - rulesEditedHere (the app): the trader edits rules in this host, so its list is written, with
 *   any edit a CLI command made meanwhile (`alerts add`, `alerts snooze`) merged in, not undone.
 * - rulesFromFile (`watch`, `alerts run`): the file is the truth; it is re-read before each save
 *   and only this loop's rule states are written into it.
 */
export interface RuleSource {
  /** The file to write for this loop's rules and states. */
  toSave(mine: AlertsFile, ctx: RuleSourceContext): Promise<AlertsFile>
}

export interface RuleSourceContext {
  alerts: DataStores['alerts']
  /** The rules as this loop last read or wrote them: the base of a merge with an outside edit. */
  diskRules: AlertRule[]
  /** An outside edit was merged in: the loop evaluates `rules` from now on; its states after. */
  adopt(rules: AlertRule[]): AlertRuleState[]
}

export function rulesEditedHere(
  /** The host shows the merged rules (its own look at the file had not seen the edit yet). */
  onMerged?: (rules: AlertRule[]) => void,
): RuleSource {
  return {
    async toSave(mine, ctx) {
      // `alerts snooze` or `alerts add` may have written since the last look (every few
      // seconds): writing our copy as is would undo it.
      const theirs = await ctx.alerts.outsideChange()
      if (theirs === null) return mine
      const merged = mergeRules(ctx.diskRules, mine.rules, theirs.rules)
      const states = ctx.adopt(merged)
      onMerged?.(merged)
      return { rules: merged, states }
    },
  }
}

export function rulesFromFile(): RuleSource {
  return {
    async toSave(mine, ctx) {
      // Re-read: `alerts add` or the app may have changed the rules since this loop read them.
      const latest = await ctx.alerts.load()
      const ours = new Map(mine.states.map((st) => [st.ruleId, st]))
      const theirs = new Map(latest.value.states.map((st) => [st.ruleId, st]))
      // A list rule's symbols have states of their own (child ids): kept while the rule is.
      const kept = new Set(latest.value.rules.map((r) => r.id))
      const ids = new Set([...ours.keys(), ...theirs.keys()])
      return {
        rules: latest.value.rules,
        states: [...ids]
          .filter((id) => kept.has(parentRuleId(id)))
          .map((id) => ours.get(id) ?? theirs.get(id))
          .filter((st): st is AlertRuleState => st !== undefined),
      }
    },
  }
}

import { isDeepStrictEqual } from 'node:util'
import type { AlertRule } from '../../shared/alerts/alert'

/**
 * The rules after two writers changed them since `base` (what the app last read or wrote): the
 * app (`ours`) and a CLI command on the same file (`theirs`: `alerts add`, `alerts snooze`). Rule
 * by rule, a side that left a rule as it was takes the other side's version; where both changed
 * one, the app's wins; a rule either side added is kept, one either side removed (and the other
 * left alone) goes. The app's order first, then what the CLI added.
 */
export function mergeRules(
  base: readonly AlertRule[],
  ours: readonly AlertRule[],
  theirs: readonly AlertRule[],
): AlertRule[] {
  const before = new Map(base.map((r) => [r.id, r]))
  const other = new Map(theirs.map((r) => [r.id, r]))
  const out: AlertRule[] = []
  for (const rule of ours) {
    const was = before.get(rule.id)
    const their = other.get(rule.id)
    const weChanged = was === undefined || !isDeepStrictEqual(was, rule)
    if (their === undefined) {
      // Gone on their side: removed there, unless we added or changed it meanwhile.
      if (weChanged) out.push(rule)
      continue
    }
    out.push(weChanged ? rule : their)
  }
  const ourIds = new Set(ours.map((r) => r.id))
  for (const rule of theirs) if (!ourIds.has(rule.id) && !before.has(rule.id)) out.push(rule)
  return out
}

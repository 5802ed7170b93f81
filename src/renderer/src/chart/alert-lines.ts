import type { AlertRule, AlertRuleState } from '../../../shared/alerts/alert'
import { alertLevels, type AlertLevel } from '../../../shared/alerts/alert-level'
import type { TickdeskApi } from '../../../shared/bridge'
import { draftToInput, emptyDraft } from '../alerts/alert-form'
import { errorMessage } from '../bridge/bridge-error'

/**
 * The alert lines of the symbol the detail chart shows: one per price level of each rule on it
 * (a channel has two), armed or triggered, in the words the chart's label shows.
 */
export interface ChartAlertLine {
  id: string
  level: AlertLevel
  price: number
  /** above / below / crosses / channel low / channel high, for the label. */
  what: string
  status: 'armed' | 'triggered' | 'off'
}

export function alertLinesFor(
  key: string,
  rules: readonly AlertRule[],
  stateOf: (id: string) => AlertRuleState | null,
): ChartAlertLine[] {
  const out: ChartAlertLine[] = []
  for (const rule of rules) {
    if (rule.key !== key) continue
    const s = stateOf(rule.id)?.status
    const status =
      !rule.enabled || s === 'disabled' || s === 'expired'
        ? 'off'
        : s === 'triggered' || s === 'cooldown'
          ? 'triggered'
          : 'armed'
    for (const { level, price } of alertLevels(rule.condition)) {
      const what =
        rule.condition.kind === 'channel'
          ? `range ${level === 'low' ? 'low' : 'high'}`
          : rule.condition.kind
      out.push({ id: rule.id, level, price, what, status })
    }
  }
  return out
}

/** "Alert above 101.25, armed": the line's visible label and the start of its accessible name. */
export function lineText(line: ChartAlertLine, price: string): string {
  return `Alert ${line.what} ${price}, ${line.status}`
}

/**
 * A new alert at a price from the chart (its menu, its form): null when added, else the
 * trader's reason why not (the form's check, or the host's refusal).
 */
export async function addPriceAlert(
  api: TickdeskApi,
  key: string,
  kind: 'above' | 'below' | 'crosses',
  price: string,
): Promise<string | null> {
  const result = draftToInput({ ...emptyDraft(key), kind, value: price })
  if (!result.ok) return result.message
  try {
    await api.invoke('addAlert', result.input)
    return null
  } catch (err) {
    return errorMessage(err)
  }
}

/** A dragged (or arrow-keyed) line let go: null when moved, else why not. */
export async function moveAlertLine(
  api: TickdeskApi,
  move: { id: string; level: AlertLevel; price: number },
): Promise<string | null> {
  try {
    await api.invoke('moveAlertLevel', move)
    return null
  } catch (err) {
    return errorMessage(err)
  }
}

import { TickdeskError } from '../../core/errors'
import type { AlertRule } from '../../shared/alerts/alert'

/**
 * The rules with one snoozed for `minutes` from `now` (0 wakes it), the same way for every host:
 * the app's snoozeAlert command and `tickdesk alerts snooze`. An unknown id is NOT_FOUND and
 * nothing changes.
 */
export function snoozeRule(
  rules: readonly AlertRule[],
  id: string,
  minutes: number,
  now: number,
): AlertRule[] {
  if (!rules.some((r) => r.id === id))
    throw new TickdeskError({ code: 'NOT_FOUND', message: `No alert with id ${id.slice(0, 64)}` })
  const until = minutes === 0 ? null : now + minutes * 60_000
  return rules.map((r) => (r.id === id ? { ...r, snoozedUntil: until } : r))
}

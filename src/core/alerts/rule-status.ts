import type { AlertRule, AlertRuleState } from '../../shared/alerts/alert'

/**
 * A rule's status from what the trader set on it (enabled, expiry, snooze), whatever its
 * condition did: the part of the engine's state machine (alert-engine.ts) that time and the
 * rule's own switches drive.
 */

/** Applies the rule's enabled flag and expiry to its state; other statuses are left as they are. */
export function normaliseStatus(rule: AlertRule, state: AlertRuleState, now: number): void {
  if (rule.expiresAt !== null && now > rule.expiresAt) {
    state.status = 'expired'
  } else if (!rule.enabled) {
    state.status = 'disabled'
  } else if (rule.snoozedUntil != null && now < rule.snoozedUntil) {
    state.status = 'snoozed'
  } else if (
    state.status === 'disabled' ||
    state.status === 'expired' ||
    state.status === 'snoozed'
  ) {
    state.status = 'armed'
  }
}

export function canStillFire(rule: AlertRule, state: AlertRuleState, now: number): boolean {
  if (!rule.enabled || (rule.expiresAt !== null && now > rule.expiresAt)) return false
  return !(rule.repeat === 'once' && state.status === 'triggered')
}

export function sameCondition(a: AlertRule, b: AlertRule): boolean {
  return a.key === b.key && JSON.stringify(a.condition) === JSON.stringify(b.condition)
}

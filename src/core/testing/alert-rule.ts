import type { AlertCondition, AlertRule } from '../../shared/alerts/alert'

/** A once-rule on crypto:BTCUSDT with the form's defaults, for the alert engine's tests. */
export function alertRule(condition: AlertCondition, over: Partial<AlertRule> = {}): AlertRule {
  return {
    id: 'r1',
    key: 'crypto:BTCUSDT',
    condition,
    repeat: 'once',
    hysteresisPct: 0.2,
    cooldownSec: 0,
    expiresAt: null,
    note: '',
    createdAt: 0,
    enabled: true,
    ...over,
  }
}

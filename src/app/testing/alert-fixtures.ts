import type { Clock } from '../../core/clock'
import type { DataStores } from '../../core/persistence/stores'
import type { FiredAlert, Webhook } from '../../shared/alerts/alert'
import { AlertLoop } from '../alerts/alert-loop'
import { rulesEditedHere } from '../alerts/alert-rule-source'

/** A webhook entry as `alerts webhook add` saves it: never failed, never delivered, unsigned. */
export function webhookEntry(over: Partial<Webhook> = {}): Webhook {
  return {
    id: 'w1',
    url: '',
    addedAt: 0,
    failures: 0,
    lastError: null,
    lastDeliveredAt: null,
    signed: false,
    ...over,
  }
}

/** A fire as the app's loop hands it to a target: a level crossed, not while away, not replayed. */
export function firedAlert(over: Partial<FiredAlert> = {}): FiredAlert {
  return {
    id: 'fire-7',
    ruleId: 'r1',
    key: 'crypto:BTCUSDT',
    message: 'BTCUSDT crossed above 65,000',
    price: 65_001,
    at: 1_700_000_000_000,
    whileAway: false,
    awaySince: null,
    quoteAt: null,
    firedBy: 'app',
    ...over,
  }
}

/** The alert loop as the app runs it over these stores: it owns the rules, problems ignored. */
export function openAppAlertLoop(stores: DataStores, clock: Clock): Promise<AlertLoop> {
  return AlertLoop.open({
    stores,
    clock,
    rules: rulesEditedHere(),
    firedBy: 'app',
    onProblem: () => undefined,
  })
}

import type { Clock } from '../../core/clock'
import type { DataStores } from '../../core/persistence/stores'
import { NO_LEASE } from '../../core/persistence/fence'
import type { AlertRule, FiredAlert, Webhook } from '../../shared/alerts/alert'
import { AlertLoop, type AlertLoopOptions } from '../alerts/alert-loop'

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

/**
 * The alert loop as the folder's owner runs it over these stores (no lease: nothing fences it),
 * problems ignored unless `over` says otherwise.
 */
export function openAppAlertLoop(
  stores: DataStores,
  clock: Clock,
  over: Partial<AlertLoopOptions> = {},
): Promise<AlertLoop> {
  return AlertLoop.open({
    stores,
    clock,
    fence: NO_LEASE,
    firedBy: 'app',
    onProblem: () => undefined,
    ...over,
  })
}

/** The rules written to alerts.json, as an edit saves them, and given to a running loop. */
export async function editRules(
  loop: AlertLoop,
  stores: DataStores,
  rules: AlertRule[],
): Promise<void> {
  const file = (await stores.alerts.load()).value
  await stores.alerts.save({ rules, states: file.states })
  await loop.setRules(rules)
}

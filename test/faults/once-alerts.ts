import { openDataStores } from '../../src/core/persistence/stores'
import type { AlertRule } from '../../src/shared/alert'

/**
 * Once-alerts written straight into a data folder's alerts.json, as `tickdesk alerts add` would,
 * for the exactly-once tests of every host: each rule id is `<tag>-<SYMBOL>`.
 */
export const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'AVAXUSDT'] as const
/** Near each symbol's simulated price: the tests set levels at multiples of it. */
export const LEVEL = { BTCUSDT: 84_000, ETHUSDT: 3_200, SOLUSDT: 165, BNBUSDT: 590, AVAXUSDT: 36 }

export async function addOnceAlerts(
  dir: string,
  tag: string,
  levels: Record<string, number>,
): Promise<Map<string, string>> {
  const stores = openDataStores(dir)
  const file = (await stores.alerts.load()).value
  const ids = new Map<string, string>()
  const rules: AlertRule[] = Object.entries(levels).map(([symbol, price]) => {
    const id = `${tag}-${symbol}`
    ids.set(symbol, id)
    return {
      id,
      key: `crypto:${symbol}`,
      condition: { kind: 'above', price },
      repeat: 'once',
      hysteresisPct: 0.2,
      cooldownSec: 0,
      expiresAt: null,
      note: '',
      createdAt: Date.now(),
      enabled: true,
    }
  })
  await stores.alerts.save({ rules: [...file.rules, ...rules], states: file.states })
  return ids
}

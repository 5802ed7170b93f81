import type { FiredAlert } from './alert'
import { parseSymbolKey } from '../markets/market'

/**
 * The one public JSON shape of a fired alert: a `watch --json` / `alerts run --json` line and a
 * webhook's body are this object, key for key, so a script written against one reads the other.
 * `id` is the fire id (also a webhook's Idempotency-Key): a consumer de-duplicates by it, and
 * `replayed: true` says an earlier delivery of the same id may have reached it (docs/alerts-guarantees.md).
 * Nothing about the account is in it.
 */
export interface FireJson {
  type: 'alert'
  id: string
  ruleId: string
  key: string
  market: string | null
  symbol: string
  message: string
  price: number
  /** Which figure `price` is: the last trade, or the mid of bid and ask (no last for the symbol). */
  priceIs: 'last' | 'mid'
  /** When it fired (epoch ms, this machine's clock). */
  at: number
  /** The time of the quote that fired it (service time when given). */
  quoteAt: number | null
  whileAway: boolean
  awaySince: number | null
  replayed: boolean
  /** Delivered long after `at` (a target that was away): old news, not a fresh crossing. */
  late: boolean
  /** The disk could not record it (full): see the notice. */
  notRecorded: boolean
}

export function fireJson(a: FiredAlert): FireJson {
  const ref = parseSymbolKey(a.key)
  return {
    type: 'alert',
    id: a.id,
    ruleId: a.ruleId,
    key: a.key,
    market: ref?.market ?? null,
    symbol: ref?.symbol ?? a.key,
    message: a.message,
    price: a.price,
    priceIs: a.priceIs ?? 'last',
    at: a.at,
    quoteAt: a.quoteAt,
    whileAway: a.whileAway,
    awaySince: a.awaySince,
    replayed: a.replayed === true,
    late: a.late === true,
    notRecorded: a.notRecorded === true,
  }
}

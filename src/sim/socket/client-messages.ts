import type { SimMarket } from '../market/instruments'
import { marketNamed, type Naming } from '../market-names'

/**
 * Parses what a stream client sends (spec: WebSocket stream: {action:"subscribe",market,
 * symbols}; unsubscribe and ping/pong are "not shown" and ours). Parse, don't trust: every
 * frame becomes one of these commands, or a reason why it is malformed.
 */

export type ClientCommand =
  | { kind: 'subscribe'; market: SimMarket; symbols: string[] }
  /** `market` null: a name this service does not know (`name` as sent). */
  | { kind: 'unsubscribe'; market: SimMarket | null; name: unknown; symbols: string[] }
  | { kind: 'unknown-market'; market: unknown; symbols: string[] }
  | { kind: 'ping' }
  /** `byAction`: written {"action":"pong"}, as the client's own messages are. */
  | { kind: 'pong'; byAction: boolean }
  | { kind: 'malformed'; reason: string }

/** Stream markets are read under the service's naming (market-names.ts). */
export function parseClientMessage(
  text: string,
  naming: Naming = { marketNames: 'client' },
): ClientCommand {
  let msg: unknown
  try {
    msg = JSON.parse(text)
  } catch {
    return { kind: 'malformed', reason: 'not JSON' }
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return { kind: 'malformed', reason: 'not a JSON object' }
  }
  const m = msg as Record<string, unknown>
  // Either key is accepted: clients answer app pings with {"action":"pong"} or {"event":"pong"}.
  const action = m.action ?? m.event
  if (action === 'ping') return { kind: 'ping' }
  if (action === 'pong') return { kind: 'pong', byAction: m.action === 'pong' }
  if (action !== 'subscribe' && action !== 'unsubscribe') {
    return { kind: 'malformed', reason: 'unknown action' }
  }
  const symbols = m.symbols
  if (
    !Array.isArray(symbols) ||
    symbols.length === 0 ||
    !symbols.every((s) => typeof s === 'string')
  ) {
    return { kind: 'malformed', reason: 'symbols must be a non-empty array of strings' }
  }
  const wanted = [...new Set(symbols.map((s: string) => s.trim().toUpperCase()))]
  const market = marketNamed(naming, m.market)
  if (action === 'unsubscribe') return { kind: action, market, name: m.market, symbols: wanted }
  if (!market) return { kind: 'unknown-market', market: m.market, symbols: wanted }
  return { kind: action, market, symbols: wanted }
}

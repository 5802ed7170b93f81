import type { SimMarket } from './market/instruments'
import { marketNamed, type MarketNaming } from './market-names'

/**
 * Parses what a stream client sends (spec: WebSocket stream: {action:"subscribe",market,
 * symbols}; unsubscribe and ping/pong are "not shown" and ours). Parse, don't trust: every
 * frame becomes one of these commands, or a reason why it is malformed.
 */

export type ClientCommand =
  | { kind: 'subscribe' | 'unsubscribe'; market: SimMarket; symbols: string[] }
  | { kind: 'unknown-market'; market: unknown; symbols: string[] }
  | { kind: 'ping' }
  | { kind: 'pong' }
  | { kind: 'malformed'; reason: string }

/** Stream markets are read under the service's naming (market-names.ts). */
export function parseClientMessage(text: string, naming: MarketNaming = 'client'): ClientCommand {
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
  if (action === 'pong' || action === 'ping') return { kind: action }
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
  if (!market) return { kind: 'unknown-market', market: m.market, symbols: wanted }
  return { kind: action, market, symbols: wanted }
}

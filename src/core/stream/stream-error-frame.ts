import { isAccountCode, MARKET_403, SYMBOL_400, TickdeskError, restStatusOf } from '../errors'

export type ErrorFrameAction =
  | { kind: 'connection-cap'; error: TickdeskError }
  /** The per-key symbol cap: the connection is fine; `symbols` may be empty (not listed). */
  | { kind: 'symbol-cap'; message: string; symbols: string[] }
  /** WS_CONN_LIMIT that says neither: the service closing the socket makes it the connection cap. */
  | { kind: 'cap-unclear'; error: TickdeskError }
  | { kind: 'symbols'; code: string; message: string; symbols: string[] }
  /** About a market, naming no symbols: the name we subscribed it under may not be the service's. */
  | { kind: 'market'; code: string; message: string }
  /**
   * A market 403 (MARKET_NOT_ENABLED, API_KEY_SCOPE_DENIED) naming no symbols: about every
   * market this socket asked for, or (nothing asked) about the stream itself.
   */
  | { kind: 'scope'; error: TickdeskError }
  /** About the key or account: carries the status REST gives the same code (restStatusOf). */
  | { kind: 'account'; error: TickdeskError }
  /** The service wants a keep-alive of the client's own (stream-keepalive.ts). */
  | { kind: 'keep-alive'; message: string }

const SAYS_SYMBOLS = /symbol|subscri|instrument|topic/i
const SAYS_CONNECTIONS = /connection|socket|\bconn\b/i
const SAYS_LIMIT = /limit|cap\b|max|too many|exceed/i
const SAYS_MARKET = /market/i
const SAYS_KEEPALIVE = /\bping|\bpong|heart.?beat|keep.?alive|\bidle\b|inactiv/i

/**
 * What an error frame on the stream means for the client. The spec lists two stream caps
 * (Limits: connections and symbols per plan, "approximate") but one code, WS_CONN_LIMIT, and no
 * frame shapes, so a service may report the symbol cap with the refused symbols, without them, or
 * under a code of its own. Read in this order:
 *   WS_CONN_LIMIT naming symbols, or any limit code or message about symbols: the symbol cap;
 *   WS_CONN_LIMIT about connections: the connection cap;
 *   WS_CONN_LIMIT saying neither: unclear until the service closes the socket (connection cap)
 *     or keeps it open (symbol cap) (stream-client waits a moment to see);
 *   a market 403 naming no symbols: the key's scope (below: what the socket asked, or the stream);
 *   other codes naming symbols, or a symbol 400 / market 403: those symbols are refused;
 *   any other whose message is about a market ("unknown market fx"): that market's name;
 *   one about pings, heartbeats or idleness: the service wants a keep-alive;
 *   anything else is about the account.
 */
export function classifyErrorFrame(f: {
  code: string
  message: string
  symbols: string[]
}): ErrorFrameAction {
  if (isAccountCode(f.code)) return { kind: 'account', error: accountError(f) }
  const text = `${f.code} ${f.message}`
  const connLimit = f.code === 'WS_CONN_LIMIT'
  if ((connLimit && f.symbols.length > 0) || (SAYS_LIMIT.test(text) && SAYS_SYMBOLS.test(text)))
    return { kind: 'symbol-cap', message: f.message, symbols: f.symbols }
  if (connLimit) {
    const error = new TickdeskError({ code: f.code, message: f.message })
    return SAYS_CONNECTIONS.test(f.message)
      ? { kind: 'connection-cap', error }
      : { kind: 'cap-unclear', error }
  }
  if (MARKET_403.has(f.code) && f.symbols.length === 0)
    return { kind: 'scope', error: accountError(f) }
  if (f.symbols.length > 0 || SYMBOL_400.has(f.code) || MARKET_403.has(f.code)) {
    return { kind: 'symbols', code: f.code, message: f.message, symbols: f.symbols }
  }
  if (SAYS_MARKET.test(f.message)) return { kind: 'market', code: f.code, message: f.message }
  if (SAYS_KEEPALIVE.test(f.message)) return { kind: 'keep-alive', message: f.message }
  return { kind: 'account', error: accountError(f) }
}

function accountError(f: { code: string; message: string }): TickdeskError {
  return new TickdeskError({ code: f.code, message: f.message, status: restStatusOf(f.code) })
}

import { describe, expect, it } from 'vitest'
import { classifyErrorFrame } from './stream-error-frame'

const kind = (code: string, message: string, symbols: string[] = []): string =>
  classifyErrorFrame({ code, message, symbols }).kind

describe('classifyErrorFrame: every reading of the stream caps', () => {
  it('reads the symbol cap with the refused symbols listed, or said in words, under any code', () => {
    expect(kind('WS_CONN_LIMIT', 'cap', ['BTCUSDT'])).toBe('symbol-cap')
    expect(kind('WS_CONN_LIMIT', 'symbol cap of 10 reached')).toBe('symbol-cap')
    expect(kind('SUBSCRIPTION_LIMIT', 'too many subscriptions')).toBe('symbol-cap')
    expect(kind('TOO_MANY_SYMBOLS', 'max 10')).toBe('symbol-cap')
  })

  it('reads the connection cap when it says so, and leaves a bare WS_CONN_LIMIT to what follows', () => {
    expect(kind('WS_CONN_LIMIT', 'connection cap of 1 reached')).toBe('connection-cap')
    expect(kind('WS_CONN_LIMIT', 'limit reached')).toBe('cap-unclear')
  })

  it('keeps per-symbol refusals and account errors apart from the caps', () => {
    expect(kind('UNKNOWN_SYMBOL', 'unknown', ['NOPE'])).toBe('symbols')
    expect(kind('MARKET_NOT_ENABLED', 'not in plan', ['EURUSD'])).toBe('symbols')
    // Naming no symbols: the key's scope, for what the socket asked or the stream itself.
    expect(kind('MARKET_NOT_ENABLED', 'not in plan')).toBe('scope')
    expect(kind('API_KEY_SCOPE_DENIED', 'key lacks scope')).toBe('scope')
    expect(kind('SUBSCRIPTION_EXPIRED', 'subscription expired')).toBe('account')
    expect(kind('DAILY_LIMIT_EXCEEDED', 'daily limit of subscriptions exceeded')).toBe('account')
  })
})

import { MARKET_403, SYMBOL_400, TickdeskError } from './errors'

export type ErrorFrameAction =
  | { kind: 'connection-cap'; error: TickdeskError }
  | { kind: 'symbols'; code: string; message: string; symbols: string[] }
  | { kind: 'account'; error: TickdeskError }

/**
 * What an error frame on the stream means for the client. WS_CONN_LIMIT naming symbols is the
 * per-key symbol cap (spec: Limits lists both caps under one code): those symbols are refused and
 * the connection itself is fine; without symbols it is the connection cap.
 */
export function classifyErrorFrame(f: {
  code: string
  message: string
  symbols: string[]
}): ErrorFrameAction {
  if (f.code === 'WS_CONN_LIMIT' && f.symbols.length === 0) {
    return {
      kind: 'connection-cap',
      error: new TickdeskError({ code: f.code, message: f.message }),
    }
  }
  if (f.symbols.length > 0 || SYMBOL_400.has(f.code) || MARKET_403.has(f.code)) {
    return { kind: 'symbols', code: f.code, message: f.message, symbols: f.symbols }
  }
  return { kind: 'account', error: new TickdeskError({ code: f.code, message: f.message }) }
}

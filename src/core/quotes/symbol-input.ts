import { parseSymbolKey, type SymbolRef } from '../../shared/markets/market'
import { TickdeskError } from '../errors'

/** A key the caller must get right (watch, candles): malformed is the caller's INVALID_INPUT. */
export function requireSymbolRef(key: string): SymbolRef {
  const ref = parseSymbolKey(key)
  if (!ref)
    throw new TickdeskError({ code: 'INVALID_INPUT', message: `not a market:SYMBOL: ${key}` })
  return ref
}

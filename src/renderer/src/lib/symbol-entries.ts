import { parseSymbolKey, symbolKey } from '../../../shared/market'

/**
 * What the "Add symbol" field holds when submitted: one symbol, or a pasted list (separated by
 * spaces, commas, semicolons or new lines). Entries that are market:SYMBOL become canonical keys
 * (once each, in order); the others are returned as typed, for the field and the error message.
 */
export interface SymbolEntries {
  keys: string[]
  invalid: string[]
}

export function parseSymbolEntries(text: string): SymbolEntries {
  const keys: string[] = []
  const invalid: string[] = []
  for (const entry of text.split(/[\s,;]+/)) {
    if (entry === '') continue
    const ref = parseSymbolKey(entry)
    if (ref === null) invalid.push(entry)
    else {
      const key = symbolKey(ref.market, ref.symbol)
      if (!keys.includes(key)) keys.push(key)
    }
  }
  return { keys, invalid }
}

export function notSymbolsMessage(invalid: readonly string[]): string {
  const list = invalid.map((e) => `"${e}"`).join(', ')
  return `${list} ${invalid.length === 1 ? 'is' : 'are'} not market:SYMBOL (markets: crypto, usdt-futures, futures, fx, commodity, cn, hk, index, agri)`
}

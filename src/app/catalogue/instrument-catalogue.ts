import type { InstrumentMatch } from '../../shared/markets/instrument'
import { parseCatalogue, searchIn, type Instrument } from '../../shared/catalogue/instrument-list'
import shipped from '../../shared/catalogue/instruments.json'
import { exactKey } from '../../shared/catalogue/instrument-search'
import { MARKETS, parseSymbolKey, symbolKey, type SymbolKey } from '../../shared/markets/market'

export { parseCatalogue, type Instrument }

export type Resolution =
  | { ok: true; key: SymbolKey; known: boolean }
  | { ok: false; code: 'INVALID_INPUT' | 'NOT_FOUND'; message: string }

/**
 * The instruments Tickdesk can find by name: the shipped list (shared/catalogue) plus the
 * symbols the service has confirmed at run time (a quote came back for them), which the app
 * persists.
 */
export class InstrumentCatalogue {
  private readonly items: Instrument[]
  private readonly byKey = new Map<SymbolKey, Instrument>()
  private readonly bySymbol = new Map<string, Instrument[]>()

  constructor(entries: readonly Instrument[] = parseCatalogue(shipped)) {
    this.items = []
    for (const e of entries) this.add(e)
  }

  /** The service answered a quote for this key: findable from now on, and known when added. */
  confirm(key: SymbolKey): boolean {
    const ref = parseSymbolKey(key)
    if (ref === null) return false
    const canonical = symbolKey(ref.market, ref.symbol)
    if (this.byKey.has(canonical)) return false
    this.add({
      key: canonical,
      market: ref.market,
      symbol: ref.symbol,
      name: '',
      words: '',
      source: 'confirmed',
    })
    return true
  }

  /** Keys confirmed at run time (what the app persists). */
  confirmed(): SymbolKey[] {
    return this.items.filter((i) => i.source === 'confirmed').map((i) => i.key)
  }

  has(key: SymbolKey): boolean {
    return this.byKey.has(key)
  }

  get size(): number {
    return this.items.length
  }

  /**
   * The best matches; a typed `market:SYMBOL` the catalogue does not know comes last (or alone),
   * so "hk:tencent" still offers hk:00700 first while "crypto:NEWCOIN" can be added as typed.
   */
  search(query: string, limit = 12): InstrumentMatch[] {
    return searchIn(this.items, (key) => this.byKey.has(key), query, limit)
  }

  /**
   * One entry of a pasted list to a key: `market:SYMBOL` as written, or a bare code the catalogue
   * lists ("600519", "BTCUSDT"). A code listed in several markets takes the first in MARKETS
   * order (crypto spot before its perpetual), the way it is shown first in search.
   */
  resolve(input: string): Resolution {
    const trimmed = input.trim()
    const typed = exactKey(trimmed)
    if (typed !== null) return { ok: true, key: typed, known: this.byKey.has(typed) }
    if (trimmed.includes(':')) {
      return {
        ok: false,
        code: 'INVALID_INPUT',
        message: `"${trimmed.slice(0, 40)}" is not market:SYMBOL (markets: ${MARKETS.join(', ')})`,
      }
    }
    const listed = this.bySymbol.get(trimmed.toUpperCase())
    const first = listed?.[0]
    if (first) return { ok: true, key: first.key, known: true }
    return {
      ok: false,
      code: 'NOT_FOUND',
      message: `No instrument "${trimmed.slice(0, 40)}" in any market: write market:SYMBOL, e.g. crypto:BTCUSDT`,
    }
  }

  private add(i: Instrument): void {
    this.items.push(i)
    this.byKey.set(i.key, i)
    const same = this.bySymbol.get(i.symbol) ?? []
    same.push(i)
    this.bySymbol.set(i.symbol, same)
  }
}

import { z } from 'zod'
import type { InstrumentMatch } from '../../shared/instrument'
import {
  MARKETS,
  parseSymbolKey,
  symbolKey,
  type Market,
  type SymbolKey,
} from '../../shared/market'
import shipped from './instruments.json'
import { exactKey, rank, type Searchable } from './instrument-search'

/**
 * The instruments Tickdesk can find by name: the list that ships with the app (instruments.json,
 * per market of the spec: crypto spot, USDT-M perpetuals, continuous futures, FX, commodities,
 * A-shares, HK stocks, indices, agriculture) plus the symbols the service has confirmed at run
 * time (a quote came back for them), which the app persists.
 */
export interface Instrument extends Searchable {
  key: SymbolKey
  source: 'catalogue' | 'confirmed'
}

const EntrySchema = z.union([
  z.tuple([z.string(), z.string()]),
  z.tuple([z.string(), z.string(), z.string()]),
])
const CatalogueFileSchema = z.object({
  version: z.literal(1),
  markets: z.partialRecord(z.enum(MARKETS), z.array(EntrySchema)),
})

/** Crypto pairs are searched by their base asset too ("btc", "eth"), as traders say them. */
function baseAsset(market: Market, symbol: string): string {
  if (market !== 'crypto' && market !== 'usdt-futures') return ''
  return symbol
    .replace(/^1000/, '')
    .replace(/(USDT|USDC|BTC)$/, '')
    .toLowerCase()
}

/** Parses the shipped list; an entry whose symbol is not a valid code is a build error, not data. */
export function parseCatalogue(raw: unknown): Instrument[] {
  const file = CatalogueFileSchema.parse(raw)
  const out: Instrument[] = []
  for (const market of MARKETS) {
    for (const [code, name, words = ''] of file.markets[market] ?? []) {
      const ref = parseSymbolKey(`${market}:${code}`)
      if (ref === null) throw new Error(`instruments.json: ${market}:${code} is not a symbol`)
      const extra = [words.toLowerCase(), baseAsset(market, ref.symbol)].filter(Boolean).join(' ')
      out.push({
        key: symbolKey(market, ref.symbol),
        market,
        symbol: ref.symbol,
        name,
        words: extra,
        source: 'catalogue',
      })
    }
  }
  return out
}

export type Resolution =
  | { ok: true; key: SymbolKey; known: boolean }
  | { ok: false; code: 'INVALID_INPUT' | 'NOT_FOUND'; message: string }

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
    const typed = exactKey(query)
    const unchecked = typed !== null && !this.byKey.has(typed)
    const found: InstrumentMatch[] = rank(this.items, query, unchecked ? limit - 1 : limit).map(
      toMatch,
    )
    if (unchecked) {
      const ref = parseSymbolKey(typed) as { market: Market; symbol: string }
      found.push({ key: typed, ...ref, name: '', source: 'unchecked' })
    }
    return found
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

function toMatch(i: Instrument): InstrumentMatch {
  return { key: i.key, market: i.market, symbol: i.symbol, name: i.name, source: i.source }
}

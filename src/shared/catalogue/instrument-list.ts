import { z } from 'zod'
import type { InstrumentMatch } from '../markets/instrument'
import { MARKETS, parseSymbolKey, symbolKey, type Market, type SymbolKey } from '../markets/market'
import { exactKey, rank, type Searchable } from './instrument-search'

/**
 * The instruments Tickdesk can find by name, as shipped with the app in instruments.json, per
 * market the service covers (spec: What the service does): crypto spot, USDT-M perpetuals,
 * continuous futures, FX, commodities, A-shares, HK stocks, indices, agriculture; and the one
 * search over them. Shared: the host searches these plus the symbols the service has confirmed
 * (app/catalogue), the add box answers from these alone in the keystroke's own frame and then takes
 * the host's answer.
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
        key: symbolKey(ref.market, ref.symbol),
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

/**
 * The best matches among `items`; a typed `market:SYMBOL` not among them (`has`) comes last (or
 * alone), so "hk:tencent" still offers hk:00700 first while "crypto:NEWCOIN" can be added as
 * typed.
 */
export function searchIn(
  items: readonly Instrument[],
  has: (key: SymbolKey) => boolean,
  query: string,
  limit: number,
): InstrumentMatch[] {
  const typed = exactKey(query)
  const unchecked = typed !== null && !has(typed)
  const found: InstrumentMatch[] = rank(items, query, unchecked ? limit - 1 : limit).map(toMatch)
  if (unchecked) {
    const ref = parseSymbolKey(typed) as { market: Market; symbol: string }
    found.push({ key: typed, ...ref, name: '', source: 'unchecked' })
  }
  return found
}

function toMatch(i: Instrument): InstrumentMatch {
  return { key: i.key, market: i.market, symbol: i.symbol, name: i.name, source: i.source }
}

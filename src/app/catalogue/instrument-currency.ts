import { z } from 'zod'
import { MARKETS, parseSymbolKey, type Market, type SymbolKey } from '../../shared/markets/market'
import { CurrencySchema, type Currency } from '../../shared/positions/position'
import shipped from '../../shared/catalogue/instruments.json'

/**
 * Each instrument's quote currency, as shipped with the catalogue (instruments.json, currencies):
 * a crypto or FX pair quotes in its second currency, other markets in their venue's, with the
 * symbols listed apart whose venue differs (index:HSI in HKD). The trader's overrides win.
 */
const CurrenciesSchema = z.object({
  currencies: z.object({
    markets: z.partialRecord(z.enum(MARKETS), CurrencySchema),
    symbols: z.record(z.string(), CurrencySchema),
  }),
})

/** Quote assets crypto pairs end in, longest first so FDUSD wins over USD. */
const CRYPTO_QUOTES = [
  'FDUSD',
  'USDT',
  'USDC',
  'TUSD',
  'BUSD',
  'BTC',
  'ETH',
  'BNB',
  'EUR',
  'TRY',
  'USD',
]
const PAIR_MARKETS: ReadonlySet<Market> = new Set(['fx', 'commodity'])

export class CurrencyTable {
  private readonly markets: Partial<Record<Market, Currency>>
  private readonly symbols: Record<string, Currency>

  constructor(raw: unknown = shipped) {
    const table = CurrenciesSchema.parse(raw).currencies
    this.markets = table.markets
    this.symbols = table.symbols
  }

  /** The currency `key` is quoted in; null when neither the table nor a pair rule knows it. */
  currencyOf(key: SymbolKey, overrides: Readonly<Record<string, Currency>> = {}): Currency | null {
    const ref = parseSymbolKey(key)
    if (ref === null) return null
    const canonical = `${ref.market}:${ref.symbol}`
    const given = overrides[canonical] ?? this.symbols[canonical]
    if (given) return given
    if (ref.market === 'crypto') {
      const quote = CRYPTO_QUOTES.find(
        (q) => ref.symbol.endsWith(q) && ref.symbol.length > q.length,
      )
      return quote ?? null
    }
    if (PAIR_MARKETS.has(ref.market) && /^[A-Z]{6}$/.test(ref.symbol)) return ref.symbol.slice(3)
    return this.markets[ref.market] ?? null
  }
}

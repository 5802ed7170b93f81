import { parseSymbolKey, type SymbolKey } from '../markets/market'
import { tradingDate } from '../markets/market-sessions'
import { isStablePair, pairKey } from './fx-rates'
import {
  fxPairsFor,
  listTotals,
  lotFigures,
  rowFigures,
  toBase,
  type BaseFigures,
  type FxQuotes,
  type ListTotals,
  type LotFigures,
  type PriceView,
  type RowFigures,
} from './pnl'
import type { Currency, PositionsFile } from './position'

/**
 * The book as a host or the renderer shows it: each lot and each row (symbol) with its figures in
 * its own currency and in the base currency, and the totals. Pure: prices, FX quotes and each
 * symbol's quote currency come in (the app knows currencies from the catalogue; the renderer
 * from the snapshot's positions.quoteCurrencies).
 */
/** A symbol's quote currency; null when unknown. */
export type CurrencyOf = (key: SymbolKey) => Currency | null

export interface LotLine extends LotFigures {
  prevClose: number | null
  /** null: neither the catalogue nor an override knows it (its figures stay unconverted). */
  currency: Currency | null
  base: BaseFigures
}

export interface RowLine extends RowFigures {
  currency: Currency | null
  base: BaseFigures
}

export interface PositionReport {
  baseCurrency: Currency
  lots: LotLine[]
  rows: RowLine[]
  totals: ListTotals
}

export function positionReport(
  file: PositionsFile,
  prices: ReadonlyMap<SymbolKey, PriceView>,
  fx: FxQuotes,
  currencyOf: CurrencyOf,
  now: number,
  opts: { keys?: readonly SymbolKey[]; base?: Currency } = {},
): PositionReport {
  const base = opts.base ?? file.baseCurrency
  const fxOptions = { peg: file.pegStablecoins }
  const wanted = opts.keys ? new Set(opts.keys) : null
  const lots = file.lots.filter((l) => wanted === null || wanted.has(l.key))
  const today = (key: SymbolKey): string | undefined => {
    const ref = parseSymbolKey(key)
    return ref ? tradingDate(ref.market, ref.symbol, now) : undefined
  }
  const convert = (f: Parameters<typeof toBase>[0], c: Currency | null): BaseFigures =>
    c === null
      ? {
          converted: false,
          currency: base,
          reason: 'NO_FX_RATE',
          message: `the quote currency of ${f.key} is not known`,
        }
      : toBase(f, c, base, fx, fxOptions)
  const lotLines = lots.map((lot): LotLine => {
    const price = prices.get(lot.key)
    const f = lotFigures(lot, price, today(lot.key))
    const currency = currencyOf(lot.key)
    return {
      ...f,
      prevClose: price?.prevClose ?? null,
      currency,
      base: convert({ ...f, fees: f.fee }, currency),
    }
  })
  const keys = [...new Set(lots.map((l) => l.key))]
  const rows = keys.map((key): RowLine => {
    const r = rowFigures(key, lots, prices.get(key), today(key))
    const currency = currencyOf(key)
    return { ...r, currency, base: convert(r, currency) }
  })
  const totals = listTotals(
    rows.map((r) => ({ row: r, currency: r.currency ?? '?' })),
    base,
    fx,
    fxOptions,
  )
  return { baseCurrency: base, lots: lotLines, rows, totals }
}

/**
 * The keys worth asking to convert these lots to the base: pairs `listed` knows, FX pairs on fx
 * and the stablecoins' on crypto (fx-rates.ts).
 */
export function fxKeysFor(
  lots: PositionsFile['lots'],
  currencyOf: CurrencyOf,
  base: Currency,
  listed: (key: SymbolKey) => boolean,
): SymbolKey[] {
  const used = new Set<Currency>()
  for (const lot of lots) {
    const c = currencyOf(lot.key)
    if (c !== null) used.add(c)
  }
  return fxPairsFor(used, base).map(pairKey).filter(listed)
}

/** FX quotes keyed by pair ('USDHKD', 'USDTUSD' -> last) from quotes keyed market:SYMBOL. */
export function fxQuotesOf(
  quotes: Iterable<{ key: SymbolKey; last: number | null }>,
): Map<string, number> {
  const fx = new Map<string, number>()
  for (const q of quotes) {
    const ref = parseSymbolKey(q.key)
    if (ref === null || q.last === null) continue
    if (ref.market === 'fx' || (ref.market === 'crypto' && isStablePair(ref.symbol)))
      fx.set(ref.symbol, q.last)
  }
  return fx
}

import { fxRate, isPegNote, type FxOptions, type FxQuotes } from './fx-rates'
import type { SymbolKey } from '../markets/market'
import type { Currency, Lot } from './position'

export { fxPairsFor, fxRate, type FxOptions, type FxQuotes, type Rate } from './fx-rates'

/**
 * Profit and loss of lots, pure and in the instrument's own currency, then totals in one base
 * currency through FX quotes from the service. Prices are per unit as quoted (no contract
 * multipliers): P&L = qty x (last - cost), fees apart. A figure that needs a price the service
 * has not sent is null, never 0.
 */
export interface PriceView {
  last: number | null
  prevClose: number | null
}

export interface LotFigures {
  id: string
  key: SymbolKey
  qty: number
  cost: number
  fee: number
  date: string | null
  last: number | null
  /** qty x last (negative for a short). */
  value: number | null
  /** qty x cost. */
  costValue: number
  /** qty x (last - cost); the fee is not in it. */
  pnl: number | null
  /** pnl over |qty x cost|, in percent; null at cost 0. */
  pnlPct: number | null
  /** pnl - fee. */
  netPnl: number | null
  /** qty x (last - previous close); from the cost for a lot opened today. */
  dayPnl: number | null
}

export function lotFigures(lot: Lot, price: PriceView | undefined, today?: string): LotFigures {
  const last = price?.last ?? null
  const costValue = lot.qty * lot.cost
  const pnl = last === null ? null : lot.qty * (last - lot.cost)
  const dayBase = lot.date !== null && lot.date === today ? lot.cost : (price?.prevClose ?? null)
  return {
    id: lot.id,
    key: lot.key,
    qty: lot.qty,
    cost: lot.cost,
    fee: lot.fee,
    date: lot.date,
    last,
    value: last === null ? null : lot.qty * last,
    costValue,
    pnl,
    pnlPct: pnl === null || costValue === 0 ? null : (pnl / Math.abs(costValue)) * 100,
    netPnl: pnl === null ? null : pnl - lot.fee,
    dayPnl: last === null || dayBase === null ? null : lot.qty * (last - dayBase),
  }
}

/** One watchlist row: every lot of one symbol. */
export interface RowFigures {
  key: SymbolKey
  lots: LotFigures[]
  /** Net quantity (longs minus shorts). */
  qty: number
  /** Cost per unit of the net quantity; null when it nets to 0. */
  avgCost: number | null
  fees: number
  last: number | null
  value: number | null
  pnl: number | null
  pnlPct: number | null
  netPnl: number | null
  dayPnl: number | null
}

export function rowFigures(
  key: SymbolKey,
  lots: readonly Lot[],
  price: PriceView | undefined,
  today?: string,
): RowFigures {
  const figures = lots.filter((l) => l.key === key).map((l) => lotFigures(l, price, today))
  const qty = sum(figures.map((f) => f.qty))
  const costValue = sum(figures.map((f) => f.costValue))
  const gross = sum(figures.map((f) => Math.abs(f.costValue)))
  const pnl = sumOrNull(figures.map((f) => f.pnl))
  const fees = sum(figures.map((f) => f.fee))
  return {
    key,
    lots: figures,
    qty,
    avgCost: qty === 0 ? null : costValue / qty,
    fees,
    last: price?.last ?? null,
    value: sumOrNull(figures.map((f) => f.value)),
    pnl,
    pnlPct: pnl === null || gross === 0 ? null : (pnl / gross) * 100,
    netPnl: pnl === null ? null : pnl - fees,
    dayPnl: sumOrNull(figures.map((f) => f.dayPnl)),
  }
}

/** A row with its quote currency, as the totals take it. */
export interface PricedRow {
  row: RowFigures
  currency: Currency
}

/** Money figures of a row or a total in one currency. */
export interface Money {
  value: number
  pnl: number
  netPnl: number
  dayPnl: number
  fees: number
}

/** A row's figures in the base currency, or why not. */
export type BaseFigures =
  | ({ converted: true; currency: Currency; rate: number; via: string[] } & Money)
  | { converted: false; currency: Currency; reason: 'NO_PRICE' | 'NO_FX_RATE'; message: string }

/** The figures toBase converts: a row's, or one lot's (its fee as `fees`). */
export interface Figures {
  key: SymbolKey
  value: number | null
  pnl: number | null
  netPnl: number | null
  dayPnl: number | null
  fees: number
}

export function toBase(
  r: Figures,
  currency: Currency,
  base: Currency,
  fx: FxQuotes,
  opts: FxOptions = {},
): BaseFigures {
  if (r.value === null || r.pnl === null || r.netPnl === null)
    return {
      converted: false,
      currency: base,
      reason: 'NO_PRICE',
      message: `${r.key} has no price yet`,
    }
  const rate = fxRate(currency, base, fx, opts)
  if (rate === null)
    return {
      converted: false,
      currency: base,
      reason: 'NO_FX_RATE',
      message: `no FX quote converts ${currency} to ${base}`,
    }
  const x = (n: number): number => n * rate.rate
  return {
    converted: true,
    currency: base,
    rate: rate.rate,
    via: rate.via,
    value: x(r.value),
    pnl: x(r.pnl),
    netPnl: x(r.netPnl),
    dayPnl: x(r.dayPnl ?? 0),
    fees: x(r.fees),
  }
}

/** Totals of a list in the base currency, and the parts that could not be put in it. */
export interface ListTotals extends Money {
  baseCurrency: Currency
  /** Rows in the totals. */
  rows: number
  /** Some converted row has no previous close: dayPnl leaves it out. */
  dayPnlPartial: boolean
  /** Rows without a price: not in any total. */
  unpriced: SymbolKey[]
  /** Per currency without an FX quote to the base: its own totals, kept out of the base ones. */
  unconverted: Array<{ currency: Currency; keys: SymbolKey[] } & Money>
  /** The trader's pegs the totals lean on ("USDT at 1.00 USD (peg you set)"), to show beside them. */
  pegs: string[]
}

export function listTotals(
  rows: readonly PricedRow[],
  base: Currency,
  fx: FxQuotes,
  opts: FxOptions = {},
): ListTotals {
  const totals: ListTotals = {
    baseCurrency: base,
    value: 0,
    pnl: 0,
    netPnl: 0,
    dayPnl: 0,
    fees: 0,
    rows: 0,
    dayPnlPartial: false,
    unpriced: [],
    unconverted: [],
    pegs: [],
  }
  for (const p of rows) {
    const b = toBase(p.row, p.currency, base, fx, opts)
    if (b.converted) {
      add(totals, b)
      for (const v of b.via) if (isPegNote(v) && !totals.pegs.includes(v)) totals.pegs.push(v)
      totals.rows += 1
      if (p.row.dayPnl === null) totals.dayPnlPartial = true
    } else if (b.reason === 'NO_PRICE') totals.unpriced.push(p.row.key)
    else {
      let part = totals.unconverted.find((u) => u.currency === p.currency)
      if (!part) {
        part = { currency: p.currency, keys: [], value: 0, pnl: 0, netPnl: 0, dayPnl: 0, fees: 0 }
        totals.unconverted.push(part)
      }
      part.keys.push(p.row.key)
      const r = p.row
      add(part, {
        value: r.value ?? 0,
        pnl: r.pnl ?? 0,
        netPnl: r.netPnl ?? 0,
        dayPnl: r.dayPnl ?? 0,
        fees: r.fees,
      })
    }
  }
  return totals
}

function add(into: Money, m: Money): void {
  into.value += m.value
  into.pnl += m.pnl
  into.netPnl += m.netPnl
  into.dayPnl += m.dayPnl
  into.fees += m.fees
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0)
}

function sumOrNull(xs: ReadonlyArray<number | null>): number | null {
  if (xs.length === 0 || xs.some((x) => x === null)) return null
  return sum(xs as number[])
}

import type { Market } from '../../../shared/markets/market'
import type { PriceValues } from '../state/price-fields'
import type { ColumnDef } from './columns'
import { quoteSpread } from '../../../shared/spread'
import {
  fitAmount,
  fitChange,
  fitPercent,
  fitPrice,
  fitSpread,
  NO_BUDGET,
  type FitBudget,
} from './fit-number'

/** A figure's text for one numeric column of one row; '' for trend and source (not figures). */
export function cellText(
  col: ColumnDef,
  figures: Readonly<PriceValues>,
  market: Market,
  symbol: string,
  budget: FitBudget = NO_BUDGET,
): string {
  if (col.kind === 'spread')
    return fitSpread(quoteSpread(figures.bid, figures.ask), market, symbol, figures.ask, budget)
  const field = col.reads[0]
  if (field === undefined) return ''
  const value = figures[field]
  switch (col.kind) {
    case 'price':
      return fitPrice(value, market, symbol, budget)
    case 'change':
      return fitChange(value, market, symbol, figures.last, budget)
    case 'percent':
      return fitPercent(value, budget)
    case 'amount':
      return fitAmount(value, budget)
    default:
      return ''
  }
}

/** Up or down colouring of a signed figure (change, change %), by its own sign. */
export function tone(col: ColumnDef, figures: Readonly<PriceValues>): '' | 'up' | 'down' {
  if (col.kind !== 'change' && col.kind !== 'percent') return ''
  const v = figures[col.reads[0] as keyof PriceValues]
  return v === null || v === 0 ? '' : v > 0 ? 'up' : 'down'
}

import type { Market } from '../../../shared/markets/market'
import {
  formatAmount,
  formatChange,
  formatCompact,
  formatPercent,
  formatPrice,
  MISSING,
} from '../../../shared/figures/figure-text'
import { textCh } from '../../../shared/figures/figure-width'

export { textCh }

/**
 * Figures that fit their cell. Column widths are set in `ch` (the advance of "0") from the data
 * (column-widths.svelte.ts); a figure that would be wider than its column is written
 * shorter, never past the cell's edge: first without decimals (20,000,000), then abbreviated
 * (1.23B). `onOver` tells the widths that the column should grow, which it does by the next frame.
 *
 * Widths are estimated, not measured (no layout read per tick): textCh (shared/figures/figure-width.ts).
 */

/** What the column of a figure knows: its width, and whom to tell when that is too narrow. */
export interface FitBudget {
  /** Content width in ch. */
  ch: number
  /** Called when a figure at full precision did not fit (the column wants to grow). */
  onOver: () => void
}

export const NO_BUDGET: FitBudget = { ch: Number.POSITIVE_INFINITY, onOver: () => undefined }

function fits(text: string, ch: number): boolean {
  // Most figures are far inside their width: no per-character walk for them.
  return text.length * 1.8 <= ch || textCh(text) <= ch
}

/** The full text if it fits; else the same number rounded to an integer; else abbreviated. */
function shorten(
  full: string,
  budget: FitBudget,
  whole: () => string,
  compact: () => string,
): string {
  if (fits(full, budget.ch)) return full
  budget.onOver()
  const integer = whole()
  return fits(integer, budget.ch) ? integer : compact()
}

const sign = (v: number): string => (v > 0 ? '+' : v < 0 ? '−' : '')
const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

export function fitPrice(
  value: number | null,
  market: Market,
  symbol: string,
  budget: FitBudget = NO_BUDGET,
): string {
  if (value === null || !Number.isFinite(value)) return MISSING
  return shorten(
    formatPrice(value, market, symbol),
    budget,
    () => wholeNumber.format(value),
    () => formatCompact(value),
  )
}

export function fitChange(
  value: number | null,
  market: Market,
  symbol: string,
  ref: number | null,
  budget: FitBudget = NO_BUDGET,
): string {
  if (value === null || !Number.isFinite(value)) return MISSING
  return shorten(
    formatChange(value, market, symbol, ref),
    budget,
    () => `${sign(value)}${wholeNumber.format(Math.abs(value))}`,
    () => `${sign(value)}${formatCompact(Math.abs(value))}`,
  )
}

export function fitPercent(value: number | null, budget: FitBudget = NO_BUDGET): string {
  if (value === null || !Number.isFinite(value)) return MISSING
  return shorten(
    formatPercent(value),
    budget,
    () => `${sign(value)}${wholeNumber.format(Math.abs(value))}%`,
    () => `${sign(value)}${formatCompact(Math.abs(value))}%`,
  )
}

const bpsFormat = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
})

/**
 * A spread as "0.50 · 4.9 bp": the price at the precision of the ask it is taken from, then basis
 * points of the mid; where that does not fit, the bps alone (what compares across symbols).
 */
export function fitSpread(
  spread: { price: number; bps: number } | null,
  market: Market,
  symbol: string,
  ask: number | null,
  budget: FitBudget = NO_BUDGET,
): string {
  if (spread === null || !Number.isFinite(spread.bps)) return MISSING
  const bps = `${spread.bps < 0 ? '−' : ''}${bpsFormat.format(Math.abs(spread.bps))} bp`
  const full = `${formatChange(spread.price, market, symbol, ask).replace('+', '')} · ${bps}`
  if (fits(full, budget.ch)) return full
  budget.onOver()
  return bps
}

/** Amounts are abbreviated already; one past a quadrillion goes to an exponent. */
export function fitAmount(value: number | null, budget: FitBudget = NO_BUDGET): string {
  const text = formatAmount(value)
  if (value === null || fits(text, budget.ch)) return text
  budget.onOver()
  return value.toExponential(1).replace('+', '')
}

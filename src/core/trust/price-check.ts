import type { QuoteFields } from '../quotes/quote-fields'

/**
 * One push held against the REST quote of the same symbol: do they name the same price? The
 * price is `last`, or for a symbol the service quotes without a last, the mid of bid and ask.
 *
 * TOLERANCE: the two were taken up to PAIR_MS apart, in which a price moves: 0.5 % of the price
 * is several times what a liquid market moves in a few seconds (a crypto walk step of the
 * simulator is 0.08 %), and far below what a misread field is off by (the 24-hour change read as
 * the price, a size, a count: whole orders of magnitude; an open or a previous close read as the
 * last is caught later, by the frozen-price check, as it never moves with the market).
 */
export const TOLERANCE = 0.005
/** A push and a REST answer this far apart or less are compared. */
export const PAIR_MS = 3_000

export type PriceBasis = 'last' | 'mid'
export type Verdict = 'agree' | 'disagree' | 'no-price'

export interface Comparison {
  verdict: Verdict
  basis: PriceBasis
  symbol: string
  /** The stream's price (null: the push carried none under the reading) and REST's. */
  pushed: number | null
  rest: number
  /** |pushed - rest| / rest, in percent; null without a pushed price. */
  diffPct: number | null
  at: number
}

/** The price a quote's figures name under a basis; null when they name none. */
export function priceOf(f: QuoteFields, basis: PriceBasis): number | null {
  if (basis === 'last') return f.last ?? null
  return f.bid !== undefined && f.ask !== undefined ? (f.bid + f.ask) / 2 : null
}

/**
 * What REST's quote is priced by, last or (none sent) its mid, and that price; null when it
 * carries neither.
 */
export function restPrice(rest: QuoteFields): { basis: PriceBasis; price: number } | null {
  if (rest.last !== undefined) return { basis: 'last', price: rest.last }
  const mid = priceOf(rest, 'mid')
  return mid === null ? null : { basis: 'mid', price: mid }
}

/** The push's figures (under the reading on trial) against REST's; null when REST has no price. */
export function comparePrices(
  symbol: string,
  pushed: QuoteFields,
  rest: QuoteFields,
  at: number,
): Comparison | null {
  const priced = restPrice(rest)
  if (priced === null) return null
  const { basis, price: r } = priced
  const p = priceOf(pushed, basis)
  if (p === null)
    return { verdict: 'no-price', basis, symbol, pushed: null, rest: r, diffPct: null, at }
  const diff = r === 0 ? Math.abs(p) : Math.abs(p - r) / Math.abs(r)
  const verdict = diff <= TOLERANCE ? 'agree' : 'disagree'
  return { verdict, basis, symbol, pushed: p, rest: r, diffPct: diff * 100, at }
}

/**
 * The quoted spread, one rule for every place that shows or watches it (the grid's Spread column,
 * the 'spread' alert condition): ask minus bid, in price and in basis points of the mid. Where the
 * service sends no bid or no ask, or the mid is not a positive price, there is no spread (null,
 * shown "—"), never 0. A crossed book (ask under bid) is told as it is: a negative spread.
 */
export interface Spread {
  /** ask - bid, in the quote's price. */
  price: number
  /** (ask - bid) / mid x 10,000. */
  bps: number
}

export function quoteSpread(bid: number | null, ask: number | null): Spread | null {
  if (bid === null || ask === null || !Number.isFinite(bid) || !Number.isFinite(ask)) return null
  const mid = (bid + ask) / 2
  if (!(mid > 0)) return null
  const price = ask - bid
  return { price, bps: (price / mid) * 10_000 }
}

/** The spread in basis points, or null (what a sort or an alert compares). */
export function spreadBps(bid: number | null, ask: number | null): number | null {
  return quoteSpread(bid, ask)?.bps ?? null
}

/**
 * The price of a quote the service sends with bid and ask only: their mid, rounded to 10
 * decimals (the mid of 1.0841 and 1.0843 is 1.0842, not the float sum's 1.0842000000000001).
 * The quote store's formula, and the specs' that check what it shows.
 */
export function midOf(bid: number, ask: number): number {
  return Math.round(((bid + ask) / 2) * 1e10) / 1e10
}

/**
 * The price of a quote the service sends with bid and ask only: their mid, rounded to 10
 * decimals (the mid of 1.0841 and 1.0843 is 1.0842, not the float sum's 1.0842000000000001).
 * One formula for the quote store that shows it and the simulator that checks what was shown.
 */
export function midOf(bid: number, ask: number): number {
  return Math.round(((bid + ask) / 2) * 1e10) / 1e10
}

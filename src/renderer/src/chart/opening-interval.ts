import { INTERVALS, type Interval } from '../../../shared/quote'

/**
 * The interval a detail chart opens at when its bars are only the ones the app built from live
 * prices (a market with no candle endpoint): a 1h chart of a symbol first seen a minute ago is one
 * candle at the edge of an empty axis, while its 1m chart already says something.
 *
 * Tried from the wanted interval towards finer ones (coarsest first, so the chart shows as much
 * time as it can): the first with `enough` bars wins; where none has enough, the one with the most.
 * Only intervals whose bar count is known are weighed (the caller asks the app for those it
 * wants). The trader's own pick of an interval is never overridden: this is for opening only.
 */
export function openingInterval(
  wanted: Interval,
  barsAt: Readonly<Partial<Record<Interval, number>>>,
  enough: number,
): Interval {
  let best = wanted
  let most = barsAt[wanted] ?? 0
  for (const iv of openingCandidates(wanted)) {
    const n = barsAt[iv]
    if (n === undefined) continue
    if (n >= enough) return iv
    if (n > most) [best, most] = [iv, n]
  }
  return best
}

/** The wanted interval and every finer one, coarsest first: the order to ask for bar counts. */
export function openingCandidates(wanted: Interval): Interval[] {
  return INTERVALS.slice(0, INTERVALS.indexOf(wanted) + 1).reverse()
}

import type { HeatmapPrefs } from '../../../shared/chart-prefs'
import type { PriceView } from '../../../shared/positions/pnl'
import type { PositionsView } from '../../../shared/positions/position'
import { fxQuotesOf, positionReport } from '../../../shared/positions/position-report'
import type { PriceValues } from '../state/price-fields'

/** What a tile's figure and size are read from: a row's newest values and its recent prices. */
export interface HeatRow {
  readonly newest: Readonly<PriceValues>
  /** Recent prices, oldest first (the row's sparkline: the last hour). */
  readonly spark: { readonly length: number; at(i: number): number; timeAt(i: number): number }
}

/**
 * The price a "since" figure is measured from: the last price the row holds at or before
 * `since`, or null when its history does not reach back that far (then there is nothing honest
 * to show: the tile says so, it does not measure from a later price).
 */
export function baseAt(row: HeatRow, since: number): number | null {
  const s = row.spark
  if (s.length === 0 || s.timeAt(0) > since) return null
  let base: number | null = null
  for (let i = 0; i < s.length && s.timeAt(i) <= since; i++) base = s.at(i)
  return base !== null && base > 0 ? base : null
}

/**
 * A tile's change in percent: the day's (the quote's, kept current with the last price by the
 * app), or since the chosen moment from `base` (baseAt, read when the moment is chosen and again
 * as the history grows, not per tick); null without a figure.
 */
export function changeOf(
  row: HeatRow,
  colour: HeatmapPrefs['colour'],
  base: number | null,
): number | null {
  const v = row.newest
  if (colour === 'day') return v.changePercent
  if (base === null || v.last === null) return null
  return ((v.last - base) / base) * 100
}

/**
 * A tile's weight when tiles are sized by the day's traded value: the quote volume the service
 * sends (in the quote currency), else volume times the last price; null when neither is known.
 * Currencies differ across markets: the size compares within one, roughly across them.
 */
export function tradedValue(row: HeatRow): number | null {
  const v = row.newest
  if (v.quoteVolume !== null && v.quoteVolume > 0) return v.quoteVolume
  if (v.volume !== null && v.volume > 0 && v.last !== null) return v.volume * v.last
  return null
}

/**
 * Each symbol's position value in the book's base currency (its own currency where no rate
 * converts it), for tiles sized by position: the same report the positions panel shows
 * (shared/positions/position-report.ts). Symbols without a lot are not in it.
 */
export function positionValues(
  book: PositionsView | null,
  keys: readonly string[],
  rowOf: (key: string) => HeatRow | null,
  now: number,
): Map<string, number> {
  const out = new Map<string, number>()
  if (book === null || book.lots.length === 0) return out
  const prices = new Map<string, PriceView>()
  for (const k of [...keys, ...book.fxKeys]) {
    const v = rowOf(k)?.newest
    if (v !== undefined) prices.set(k, { last: v.last, prevClose: v.prevClose })
  }
  const fx = fxQuotesOf([...prices].map(([key, p]) => ({ key, last: p.last })))
  const report = positionReport(book, prices, fx, (k) => book.quoteCurrencies[k] ?? null, now, {
    keys,
  })
  for (const r of report.rows) {
    const value = r.base.converted ? r.base.value : r.value
    if (value !== null) out.set(r.key, Math.abs(value))
  }
  return out
}

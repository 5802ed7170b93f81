import { QUOTE_FIGURES, type QuoteFigure } from '../../../shared/quote'

/** The numbers a row can show: a quote's figures (every sortable grid column but the symbol). */
export type PriceValues = Record<QuoteFigure, number | null>

/** Bit i stands for QUOTE_FIGURES[i]: which fields a view paints. */
export type FieldMask = number
export const fieldBit = (f: QuoteFigure): FieldMask => 1 << QUOTE_FIGURES.indexOf(f)
export const ALL_FIELDS: FieldMask = (1 << QUOTE_FIGURES.length) - 1
export function fieldMask(fields: Iterable<QuoteFigure>): FieldMask {
  let mask = 0
  for (const f of fields) mask |= fieldBit(f)
  return mask
}

/**
 * The fields the grid's columns show, shared by every row of one book. A hidden column's field is
 * kept in plain state only, so it costs a tick no $state write (no per-tick work for hidden
 * columns); showing the column again brings the rows in view up to date at once.
 */
export interface GridFields {
  mask: FieldMask
  /** The Trend column is shown (the sparkline is drawn). */
  trend: boolean
  /**
   * The grid binds its cells and rows write them (row-cell.ts): its columns then cost a tick no
   * $state write at all. Unset for views that read the fields reactively (the strip).
   */
  direct?: boolean
}

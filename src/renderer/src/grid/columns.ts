import { GRID_COLUMN_LABELS, GRID_COLUMNS, type GridColumn } from '../../../shared/grid'
import type { QuoteFigure } from '../../../shared/quote'
import { fieldMask, type FieldMask } from '../state/price-fields'

/**
 * The grid's columns as data. What a column shows decides how it is formatted and sized
 * (fit-number.ts, column-widths.svelte.ts):
 *   price    a price at the market's precision; width follows the data
 *   change   a signed price change at the price's precision; width follows the data
 *   percent  a signed percentage, two decimals; width follows the data
 *   amount   volumes, turnover, trade counts and sizes: always abbreviated (1.25M), fixed width
 *   spread   ask - bid at the price's precision and in bps of the mid (shared/spread.ts); width
 *            follows the data, the bps alone where the column is too narrow
 *   trend    the sparkline, fixed width
 *   source   where the price came from and how old it is, fixed width
 */
export type ColumnKind = 'price' | 'change' | 'percent' | 'amount' | 'spread' | 'trend' | 'source'

export interface ColumnDef {
  id: GridColumn
  /** The header's text: short, so the header never needs more room than the figures. */
  label: string
  /** The whole name: the header's tooltip and the column chooser's label. */
  name: string
  /**
   * The header's accessible name: the whole name, led by the label when the label is a short
   * form ("Chg (Change)"), so it contains the words shown (WCAG 2.5.3: a speech-input user says
   * "click Chg") and still tells a screen-reader user what the column is.
   */
  spoken: string
  kind: ColumnKind
  /** The row fields its cells read (painted only while the column shows). */
  reads: readonly QuoteFigure[]
}

const def = (
  id: GridColumn,
  label: string,
  name: string,
  kind: ColumnKind,
  reads: readonly QuoteFigure[] = [],
): ColumnDef => ({ id, label, name, spoken: spokenName(label, name), kind, reads })

export function spokenName(label: string, name: string): string {
  // Whole words: "Vol" is not said by saying "Volume".
  const leads = name === label || name.toLowerCase().startsWith(`${label.toLowerCase()} `)
  return leads ? name : `${label} (${name})`
}

export const COLUMN_DEFS: Readonly<Record<GridColumn, ColumnDef>> = {
  last: def('last', GRID_COLUMN_LABELS.last, 'Last', 'price', ['last']),
  // The change takes its precision from the price it changes.
  change: def('change', GRID_COLUMN_LABELS.change, 'Change', 'change', ['change', 'last']),
  changePercent: def('changePercent', GRID_COLUMN_LABELS.changePercent, 'Change %', 'percent', [
    'changePercent',
  ]),
  open: def('open', GRID_COLUMN_LABELS.open, 'Open', 'price', ['open']),
  prevClose: def('prevClose', GRID_COLUMN_LABELS.prevClose, 'Previous close', 'price', [
    'prevClose',
  ]),
  high: def('high', GRID_COLUMN_LABELS.high, 'High', 'price', ['high']),
  low: def('low', GRID_COLUMN_LABELS.low, 'Low', 'price', ['low']),
  volume: def('volume', GRID_COLUMN_LABELS.volume, 'Volume', 'amount', ['volume']),
  quoteVolume: def('quoteVolume', GRID_COLUMN_LABELS.quoteVolume, 'Quote volume', 'amount', [
    'quoteVolume',
  ]),
  trades: def('trades', GRID_COLUMN_LABELS.trades, 'Trades', 'amount', ['trades']),
  bid: def('bid', GRID_COLUMN_LABELS.bid, 'Bid', 'price', ['bid']),
  ask: def('ask', GRID_COLUMN_LABELS.ask, 'Ask', 'price', ['ask']),
  bidSize: def('bidSize', GRID_COLUMN_LABELS.bidSize, 'Bid size', 'amount', ['bidSize']),
  askSize: def('askSize', GRID_COLUMN_LABELS.askSize, 'Ask size', 'amount', ['askSize']),
  spread: def('spread', GRID_COLUMN_LABELS.spread, 'Spread (ask − bid, bps of mid)', 'spread', [
    'bid',
    'ask',
  ]),
  trend: def('trend', GRID_COLUMN_LABELS.trend, 'Trend (sparkline)', 'trend'),
  source: def('source', GRID_COLUMN_LABELS.source, 'Source and age', 'source'),
}

/** The chosen ids as definitions, unknown ones dropped (settings are parsed, but be kind). */
export function columnDefs(ids: readonly GridColumn[]): ColumnDef[] {
  return ids.flatMap((id) => (id in COLUMN_DEFS ? [COLUMN_DEFS[id]] : []))
}

/** Which row fields the chosen columns paint, and whether the sparkline is drawn. */
export function paintedFields(columns: readonly ColumnDef[]): { mask: FieldMask; trend: boolean } {
  return {
    mask: fieldMask(columns.flatMap((c) => c.reads)),
    trend: columns.some((c) => c.kind === 'trend'),
  }
}

/** Every column in chooser order: the chosen ones as ordered, then the others in default order. */
export function chooserOrder(chosen: readonly GridColumn[]): GridColumn[] {
  return [...chosen, ...GRID_COLUMNS.filter((c) => !chosen.includes(c))]
}

/** The chosen columns after showing or hiding one; a shown one keeps its place in `order`. */
export function toggleColumn(
  order: readonly GridColumn[],
  chosen: readonly GridColumn[],
  id: GridColumn,
): GridColumn[] {
  const on = new Set(chosen)
  if (on.has(id)) on.delete(id)
  else on.add(id)
  return order.filter((c) => on.has(c))
}

/** `order` with `id` moved one place up (-1) or down (+1); unchanged at either end. */
export function moveColumn(order: readonly GridColumn[], id: GridColumn, by: -1 | 1): GridColumn[] {
  const from = order.indexOf(id)
  const to = from + by
  if (from < 0 || to < 0 || to >= order.length) return [...order]
  const next = [...order]
  next.splice(from, 1)
  next.splice(to, 0, id)
  return next
}

// The fixed parts of the layout per density are shared with the host's cached snapshot.
export { DENSITY, type DensityMetrics } from '../../../shared/grid'

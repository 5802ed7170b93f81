import {
  GRID_COLUMN_KINDS,
  GRID_COLUMN_LABELS,
  GRID_COLUMNS,
  type GridColumn,
  type GridColumnKind,
} from '../../../shared/grid'
import type { QuoteFigure } from '../../../shared/quote'
import { fieldMask, type FieldMask } from '../state/price-fields'

/**
 * The grid's columns as data. What a column shows (its kind, GRID_COLUMN_KINDS in shared/grid.ts)
 * decides how it is formatted and sized (fit-number.ts, column-widths.svelte.ts).
 */
export type ColumnKind = GridColumnKind

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

/** A column's definition: its label and kind from the shared tables (shared/grid.ts). */
function def(id: GridColumn, name: string, reads: readonly QuoteFigure[] = []): ColumnDef {
  const label = GRID_COLUMN_LABELS[id]
  return { id, label, name, spoken: spokenName(label, name), kind: GRID_COLUMN_KINDS[id], reads }
}

export function spokenName(label: string, name: string): string {
  // Whole words: "Vol" is not said by saying "Volume".
  const leads = name === label || name.toLowerCase().startsWith(`${label.toLowerCase()} `)
  return leads ? name : `${label} (${name})`
}

export const COLUMN_DEFS: Readonly<Record<GridColumn, ColumnDef>> = {
  last: def('last', 'Last', ['last']),
  // The change takes its precision from the price it changes.
  change: def('change', 'Change', ['change', 'last']),
  changePercent: def('changePercent', 'Change %', ['changePercent']),
  open: def('open', 'Open', ['open']),
  prevClose: def('prevClose', 'Previous close', ['prevClose']),
  high: def('high', 'High', ['high']),
  low: def('low', 'Low', ['low']),
  volume: def('volume', 'Volume', ['volume']),
  quoteVolume: def('quoteVolume', 'Quote volume', ['quoteVolume']),
  trades: def('trades', 'Trades', ['trades']),
  bid: def('bid', 'Bid', ['bid']),
  ask: def('ask', 'Ask', ['ask']),
  bidSize: def('bidSize', 'Bid size', ['bidSize']),
  askSize: def('askSize', 'Ask size', ['askSize']),
  spread: def('spread', 'Spread (ask − bid, bps of mid)', ['bid', 'ask']),
  trend: def('trend', 'Trend (sparkline)'),
  source: def('source', 'Source and age'),
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

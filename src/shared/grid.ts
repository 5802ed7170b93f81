import { z } from 'zod'
import { QUOTE_FIGURES, type QuoteFigure } from './quote'
import { patchRecord } from './record-patch'

/**
 * The watchlist grid's choices, as the trader makes them: which columns in which order, how
 * dense the rows are, and each watchlist's sort. Symbol comes first and the row actions last,
 * always; everything between is a choice. Fields of the spec's TickerQuote (open, prevClose,
 * bidSize, askSize, quoteVolume, trades) are offered beside the ones shown by default; a service
 * that does not send one leaves its cells empty ("—"), never 0. Spread is worked out from bid and
 * ask (spread.ts), not sent: empty where either is missing.
 */
export const GRID_COLUMNS = [
  'last',
  'change',
  'changePercent',
  'open',
  'prevClose',
  'high',
  'low',
  'volume',
  'quoteVolume',
  'trades',
  'bid',
  'ask',
  'bidSize',
  'askSize',
  'spread',
  'trend',
  'source',
] as const
/** Each column's header text: short, so the header never needs more room than the figures. */
export const GRID_COLUMN_LABELS: Readonly<Record<GridColumn, string>> = {
  last: 'Last',
  change: 'Chg',
  changePercent: 'Chg %',
  open: 'Open',
  prevClose: 'Prev',
  high: 'High',
  low: 'Low',
  volume: 'Vol',
  quoteVolume: 'Q vol',
  trades: 'Trades',
  bid: 'Bid',
  ask: 'Ask',
  bidSize: 'Bid sz',
  askSize: 'Ask sz',
  spread: 'Spread',
  trend: 'Trend',
  source: 'Source',
}

/**
 * What each column shows, which decides how it is written and how wide it is (shared/figures):
 * the renderer's grid and the browser host's cached snapshot read this one table.
 *   price    a price at the market's precision; width follows the data
 *   change   a signed price change at the price's precision; width follows the data
 *   percent  a signed percentage, two decimals; width follows the data
 *   amount   volumes, turnover, trade counts and sizes: always abbreviated (1.25M), fixed width
 *   spread   ask - bid at the price's precision and in bps of the mid (spread.ts); width
 *            follows the data, the bps alone where the column is too narrow
 *   trend    the sparkline, fixed width
 *   source   where the price came from and how old it is, fixed width
 */
export type GridColumnKind =
  'price' | 'change' | 'percent' | 'amount' | 'spread' | 'trend' | 'source'
export const GRID_COLUMN_KINDS: Readonly<Record<GridColumn, GridColumnKind>> = {
  last: 'price',
  change: 'change',
  changePercent: 'percent',
  open: 'price',
  prevClose: 'price',
  high: 'price',
  low: 'price',
  volume: 'amount',
  quoteVolume: 'amount',
  trades: 'amount',
  bid: 'price',
  ask: 'price',
  bidSize: 'amount',
  askSize: 'amount',
  spread: 'spread',
  trend: 'trend',
  source: 'source',
}

export const GridColumnSchema = z.enum(GRID_COLUMNS)
export type GridColumn = z.infer<typeof GridColumnSchema>

/** The grid before the trader chose anything: the columns Tickdesk has always shown. */
export const DEFAULT_COLUMNS: readonly GridColumn[] = [
  'last',
  'change',
  'changePercent',
  'high',
  'low',
  'volume',
  'bid',
  'ask',
  'trend',
  'source',
]

export const DensitySchema = z.enum(['compact', 'comfortable'])
export type Density = z.infer<typeof DensitySchema>

/**
 * Numbers the grid works out from a quote's figures rather than receiving them: each names the
 * figures it is made of (the bridge carries those, so hiding the column costs a tick nothing).
 */
export const DERIVED_FIGURES = { spread: ['bid', 'ask'] } as const satisfies Record<
  string,
  readonly QuoteFigure[]
>
export type DerivedFigure = keyof typeof DERIVED_FIGURES

/** Columns a watchlist can be sorted by: the symbol and every number (spread by its bps). */
export const SORT_COLUMNS = ['symbol', ...QUOTE_FIGURES, 'spread'] as const
export const SortColumnSchema = z.enum(SORT_COLUMNS)
export type SortColumn = z.infer<typeof SortColumnSchema>
export const SortSpecSchema = z.object({
  column: SortColumnSchema,
  direction: z.enum(['ascending', 'descending']),
})
export interface SortSpec {
  column: SortColumn
  direction: 'ascending' | 'descending'
}

/** One remembered sort per watchlist (50 lists at most, room for renamed and recreated ones). */
export const MAX_REMEMBERED_SORTS = 100
const listId = z.string().min(1).max(64)

export const GridSettingsSchema = z.object({
  columns: z
    .array(GridColumnSchema)
    .max(GRID_COLUMNS.length)
    .refine((cs) => new Set(cs).size === cs.length, { message: 'a column is listed twice' }),
  density: DensitySchema,
  /** Watchlist id -> its sort; a list not named here shows its own order. */
  sorts: z
    .record(listId, SortSpecSchema)
    .refine((s) => Object.keys(s).length <= MAX_REMEMBERED_SORTS, {
      message: `at most ${MAX_REMEMBERED_SORTS} remembered sorts`,
    }),
})
export type GridSettings = z.infer<typeof GridSettingsSchema>

export const DEFAULT_GRID: GridSettings = {
  columns: [...DEFAULT_COLUMNS],
  density: 'comfortable',
  sorts: {},
}

/**
 * A change to the grid: columns and density replace, sorts merge list by list (null forgets a
 * list's sort), so sorting one list never undoes a sort another window just saved on another.
 */
export const GridPatchSchema = z
  .object({
    columns: GridSettingsSchema.shape.columns,
    density: DensitySchema,
    sorts: z.record(listId, SortSpecSchema.nullable()),
  })
  .partial()
export type GridPatch = z.infer<typeof GridPatchSchema>

export function mergeGrid(current: GridSettings, patch: GridPatch): GridSettings {
  return {
    columns: patch.columns ?? current.columns,
    density: patch.density ?? current.density,
    sorts: patchRecord(current.sorts, patch.sorts),
  }
}

/**
 * Fixed parts of the watchlist grid's layout per density, in px (the grid and the host's cached
 * snapshot of it) (figures are sized in `ch`, which follows the
 * density's font size). A sparkline is drawn at its column's width, so it cannot run into Source.
 */
export interface DensityMetrics {
  /** Horizontal padding of every cell, each side. */
  padX: number
  sparkWidth: number
  sparkHeight: number
  symbolWidth: number
  sourceWidth: number
  actionsWidth: number
}

export const DENSITY: Readonly<Record<Density, DensityMetrics>> = {
  comfortable: {
    padX: 8,
    sparkWidth: 64,
    sparkHeight: 18,
    symbolWidth: 168,
    sourceWidth: 136,
    actionsWidth: 84,
  },
  compact: {
    padX: 5,
    sparkWidth: 52,
    sparkHeight: 14,
    symbolWidth: 152,
    sourceWidth: 124,
    actionsWidth: 72,
  },
}

import { z } from 'zod'
import { MAX_PERIOD, MIN_PERIOD } from './indicators'
import { IntervalSchema } from './quote'
import { patchRecord } from './record-patch'

/**
 * The detail chart's indicators, remembered per symbol in settings.chart.studies: the trader who
 * set an EMA 20 and RSI 14 on gold sees them again tomorrow, and bitcoin keeps its own.
 */
const period = z.number().int().min(MIN_PERIOD).max(MAX_PERIOD)
const symbolKey = z.string().min(1).max(64)

export const ChartStudiesSchema = z.object({
  sma: z.array(period).max(4),
  ema: z.array(period).max(4),
  /** Intraday intervals only; the chart ignores it on daily and longer bars. */
  vwap: z.boolean(),
  /** RSI period, drawn in its own pane under the prices; null when off. */
  rsi: period.nullable(),
  /** A second symbol drawn on a percent scale from the first visible bar; null when none. */
  compare: symbolKey.nullable(),
})
export type ChartStudies = z.infer<typeof ChartStudiesSchema>

export const NO_STUDIES: ChartStudies = { sma: [], ema: [], vwap: false, rsi: null, compare: null }

/** Symbols with remembered indicators (a long watchlist and then some). */
export const MAX_REMEMBERED_CHARTS = 500

/** Tiles on the wall of mini charts: the first this many symbols of the list. */
export const WALL_TILE_COUNTS = [4, 6, 9, 12, 16, 20, 25, 30] as const
export const MIN_WALL_TILES = 4
export const MAX_WALL_TILES = 30

/**
 * The watchlist as a table, a wall of mini charts or a heatmap, the wall's bar interval and how
 * many tiles it shows. Absent from settings files that predate the wall: wallPrefsOf fills it in.
 */
export const WallPrefsSchema = z.object({
  view: z.enum(['table', 'wall', 'heatmap']),
  interval: IntervalSchema,
  tiles: z.number().int().min(MIN_WALL_TILES).max(MAX_WALL_TILES),
})
export type WallPrefs = z.infer<typeof WallPrefsSchema>
export const DEFAULT_WALL: WallPrefs = { view: 'table', interval: '5m', tiles: 12 }

export function wallPrefsOf(chart: ChartSettings): WallPrefs {
  return { ...DEFAULT_WALL, ...chart.wall }
}

/**
 * The heatmap of the list: tiles coloured by the day's change % or the change since a chosen
 * moment (`since`, epoch ms; the renderer's sparkline history reaches an hour back), sized alike
 * or by the day's traded value or the trader's position value.
 */
export const HeatmapPrefsSchema = z.object({
  colour: z.enum(['day', 'since']),
  since: z.number().int().min(0).nullable(),
  size: z.enum(['equal', 'volume', 'value']),
})
export type HeatmapPrefs = z.infer<typeof HeatmapPrefsSchema>
export const DEFAULT_HEATMAP: HeatmapPrefs = { colour: 'day', since: null, size: 'equal' }

export function heatmapPrefsOf(chart: ChartSettings): HeatmapPrefs {
  return { ...DEFAULT_HEATMAP, ...chart.heatmap }
}

export const ChartSettingsSchema = z.object({
  studies: z
    .record(symbolKey, ChartStudiesSchema)
    .refine((s) => Object.keys(s).length <= MAX_REMEMBERED_CHARTS, {
      message: `at most ${MAX_REMEMBERED_CHARTS} charts remembered`,
    }),
  wall: WallPrefsSchema.optional(),
  heatmap: HeatmapPrefsSchema.optional(),
})
export type ChartSettings = z.infer<typeof ChartSettingsSchema>
export const DEFAULT_CHART: ChartSettings = { studies: {} }

/** A change merges symbol by symbol (null forgets one), like the grid's sorts. */
export const ChartPatchSchema = z
  .object({
    studies: z.record(symbolKey, ChartStudiesSchema.nullable()),
    wall: WallPrefsSchema.partial(),
    heatmap: HeatmapPrefsSchema.partial(),
  })
  .partial()
export type ChartPatch = z.infer<typeof ChartPatchSchema>

export function mergeChart(current: ChartSettings, patch: ChartPatch): ChartSettings {
  const studies = patchRecord(current.studies, patch.studies)
  const wall = patch.wall || current.wall ? { ...wallPrefsOf(current), ...patch.wall } : undefined
  const heatmap =
    patch.heatmap || current.heatmap ? { ...heatmapPrefsOf(current), ...patch.heatmap } : undefined
  return {
    studies,
    ...(wall === undefined ? {} : { wall }),
    ...(heatmap === undefined ? {} : { heatmap }),
  }
}

/** What a symbol's chart shows: its remembered studies, or none. */
export function studiesFor(chart: ChartSettings, key: string): ChartStudies {
  return chart.studies[key] ?? NO_STUDIES
}

/** The patch that remembers `studies` for `key`; an empty set is forgotten rather than stored. */
export function studiesPatch(key: string, studies: ChartStudies): ChartPatch {
  const empty =
    studies.sma.length === 0 &&
    studies.ema.length === 0 &&
    !studies.vwap &&
    studies.rsi === null &&
    studies.compare === null
  return { studies: { [key]: empty ? null : studies } }
}

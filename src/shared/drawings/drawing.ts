import { z } from 'zod'
import type { Interval } from '../quote'

/**
 * What a trader draws on a chart, in price and time (epoch ms), never in pixels or bar indices:
 * a drawing stays on the same prices and moments when the interval, the zoom or the history
 * changes. Saved per symbol and interval family (drawings.json in the data folder, the app's
 * drawing book): a trend line drawn on 5m bars shows on 1m and 1h, not on the weekly chart,
 * where its two points would sit inside one bar.
 *
 *   hline  a horizontal line at a price, across the whole chart
 *   ray    a horizontal ray from a moment to the right
 *   trend  a line through two points, extended to the right of the second
 *   range  a rectangle from one moment to another (or on to the right) between two prices
 */

export const INTERVAL_FAMILIES = ['intraday', 'daily'] as const
export const IntervalFamilySchema = z.enum(INTERVAL_FAMILIES)
export type IntervalFamily = z.infer<typeof IntervalFamilySchema>

/** Minutes to hours share their drawings; days, weeks and months share theirs. */
export function intervalFamily(interval: Interval): IntervalFamily {
  return interval === '1d' || interval === '1w' || interval === '1mo' ? 'daily' : 'intraday'
}

export const FAMILY_WORDS: Readonly<Record<IntervalFamily, string>> = {
  intraday: 'minute and hour charts',
  daily: 'day, week and month charts',
}

/** Drawings on one chart (a symbol in one family), and charts with drawings, at most. */
export const MAX_DRAWINGS_PER_CHART = 100
export const MAX_DRAWN_CHARTS = 2000

const time = z.number().int().min(0).max(8.64e15)
const price = z
  .number({ message: 'a drawing is at a price' })
  .finite()
  .positive({ message: 'a drawing is at a price above zero' })
export const PointSchema = z.object({ t: time, price })
export type Point = z.infer<typeof PointSchema>

/** The geometry of a line the price can cross: what a line alert carries and follows. */
export const LineSchema = z.discriminatedUnion('shape', [
  z.object({ shape: z.literal('hline'), price }),
  z.object({ shape: z.literal('ray'), from: PointSchema }),
  z
    .object({ shape: z.literal('trend'), a: PointSchema, b: PointSchema })
    .refine((l) => l.a.t < l.b.t, {
      message: "a trend line's second point is later than its first",
      path: ['b'],
    }),
])
export type Line = z.infer<typeof LineSchema>

/** A price range in time: `to` null extends it to the right (it never ends). */
export const RangeSchema = z
  .object({ from: time, to: time.nullable(), low: price, high: price })
  .refine((r) => r.low < r.high, {
    message: "a range's low is below its high",
    path: ['low'],
  })
  .refine((r) => r.to === null || r.from < r.to, {
    message: 'a range ends after it starts',
    path: ['to'],
  })
export type Range = z.infer<typeof RangeSchema>

export const DrawingIdSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[\w-]+$/)

export const DrawingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('line'), id: DrawingIdSchema, line: LineSchema }),
  z.object({ kind: z.literal('range'), id: DrawingIdSchema, range: RangeSchema }),
])
export type Drawing = z.infer<typeof DrawingSchema>

/** One chart's drawings: no two with one id. */
export const ChartDrawingsSchema = z
  .array(DrawingSchema)
  .max(MAX_DRAWINGS_PER_CHART, {
    message: `at most ${MAX_DRAWINGS_PER_CHART} drawings on one chart`,
  })
  .refine((list) => new Set(list.map((d) => d.id)).size === list.length, {
    message: 'two drawings with one id',
  })

/** `market:SYMBOL|family`: where a chart's drawings are kept in the file. */
export function chartId(key: string, family: IntervalFamily): string {
  return `${key}|${family}`
}

export const DrawingsFileSchema = z.object({
  charts: z
    .record(z.string().min(3).max(80), ChartDrawingsSchema)
    .refine((c) => Object.keys(c).length <= MAX_DRAWN_CHARTS, {
      message: `at most ${MAX_DRAWN_CHARTS} charts with drawings`,
    }),
})
export type DrawingsFile = z.infer<typeof DrawingsFileSchema>

/** What a trader calls a drawing: "trend line", "horizontal ray", "range". */
export function drawingName(d: Drawing): string {
  if (d.kind === 'range') return 'range'
  return lineName(d.line)
}

export function lineName(line: Line): string {
  return line.shape === 'trend'
    ? 'trend line'
    : line.shape === 'ray'
      ? 'horizontal ray'
      : 'horizontal line'
}

import { z } from 'zod'
import { AlertRepeatSchema, AlertRuleSchema } from '../alerts/alert'
import { command } from '../bridge-command'
import { ChartDrawingsSchema, DrawingIdSchema, IntervalFamilySchema } from './drawing'
import { IntervalSchema } from '../quote'

const key = z.string().min(1).max(64)

/** Charts a getDrawings call may ask for at once: a wall of tiles and then some. */
export const MAX_DRAWING_KEYS = 100

/** One chart's drawings: a symbol in an interval family (drawings/drawing.ts). */
export const ChartDrawingsViewSchema = z.object({
  key,
  family: IntervalFamilySchema,
  drawings: ChartDrawingsSchema,
})
export type ChartDrawingsView = z.infer<typeof ChartDrawingsViewSchema>

/**
 * The bridge commands of the trader's drawings, ready for COMMANDS. Drawings live in the data
 * folder's drawings.json (src/app/drawings); an alert on a drawing follows it when it moves and
 * goes with it when it is removed.
 */
export const DRAWING_COMMANDS = {
  /** The drawings of each symbol's chart in a family (the wall asks for its tiles at once). */
  getDrawings: command(
    z.object({ keys: z.array(key).max(MAX_DRAWING_KEYS), family: IntervalFamilySchema }),
    z.array(ChartDrawingsViewSchema),
  ),
  /**
   * A chart's drawings as they are now (added, moved, removed, undone). Alerts on a drawing that
   * moved take its new place; alerts on a drawing that is gone are removed; the result counts both.
   */
  saveDrawings: command(
    ChartDrawingsViewSchema,
    z.object({
      drawings: ChartDrawingsSchema,
      alertsMoved: z.number().int().min(0),
      alertsRemoved: z.number().int().min(0),
    }),
  ),
  /**
   * An alert on a saved drawing: a line crossed (either way, or up or down only), a range entered
   * or left. Built from the drawing as saved, never from geometry the page sends; `interval` is
   * the chart's, whose bars give a line's side before the rule has seen a price.
   */
  addDrawingAlert: command(
    z.object({
      key,
      family: IntervalFamilySchema,
      drawingId: DrawingIdSchema,
      interval: IntervalSchema,
      direction: z.enum(['up', 'down', 'any']).default('any'),
      on: z.enum(['enter', 'exit']).default('enter'),
      repeat: AlertRepeatSchema.default('once'),
    }),
    AlertRuleSchema,
  ),
} as const

/** A chart's drawings changed (saved from any page): views that show them draw them again. */
export const DrawingsEventSchema = z.object({
  type: z.literal('drawings'),
  key,
  family: IntervalFamilySchema,
  drawings: ChartDrawingsSchema,
})

export type DrawingCommandName = keyof typeof DRAWING_COMMANDS

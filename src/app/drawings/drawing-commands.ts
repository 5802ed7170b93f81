import { TickdeskError } from '../../core/errors'
import { drawingName } from '../../shared/drawings/drawing'
import { buildAlertRule } from '../alerts/alert-rules'
import type { AlertRule } from '../../shared/alerts/alert'
import type { ServiceRef } from '../../shared/alerts/alert-service'
import type { WatchlistState } from '../watchlists/watchlist-book'
import type { Handlers } from '../command-handler'
import { canonicalKey } from '../watchlists/watchlist-book'
import type { DrawingBook } from './drawing-book'
import { drawingCondition, followDrawings } from '../../shared/drawings/drawing-alerts'

/** What the drawing commands use of the app: the drawing book, and the alert rules they follow. */
export interface DrawingAccess {
  readonly drawings: DrawingBook
  readonly rules: readonly AlertRule[]
  readonly lists: WatchlistState
  setRules(rules: AlertRule[]): Promise<void>
  now(): number
  /** The service this process runs on: a rule made here is judged only there. */
  alertService(): ServiceRef
}

function key(input: string): string {
  try {
    return canonicalKey(input)
  } catch (e) {
    throw new TickdeskError({ code: 'INVALID_INPUT', message: (e as Error).message })
  }
}

/**
 * Drawings on charts and alerts on them. A save is the chart's drawings as they now are (an add,
 * a move, a removal, an undo alike): the alerts on them follow in the same command, after the
 * drawings are on disk.
 */
export const DRAWING_HANDLERS: Handlers<
  'getDrawings' | 'saveDrawings' | 'addDrawingAlert',
  DrawingAccess
> = {
  getDrawings: async (app, p) =>
    Promise.all(
      p.keys.map(async (k) => {
        const canonical = key(k)
        return {
          key: canonical,
          family: p.family,
          drawings: await app.drawings.of(canonical, p.family),
        }
      }),
    ),
  saveDrawings: async (app, p) => {
    const chart = { key: key(p.key), family: p.family }
    const drawings = await app.drawings.save(chart.key, chart.family, p.drawings)
    const next = followDrawings(app.rules, { ...chart, drawings })
    if (next.moved + next.removed > 0) await app.setRules(next.rules)
    return { drawings, alertsMoved: next.moved, alertsRemoved: next.removed }
  },
  addDrawingAlert: async (app, p) => {
    const k = key(p.key)
    const d = (await app.drawings.of(k, p.family)).find((x) => x.id === p.drawingId)
    if (d === undefined)
      throw new TickdeskError({
        code: 'NOT_FOUND',
        message: 'The alert was not added: that drawing is no longer on the chart',
      })
    if (d.kind === 'range' && d.range.to !== null && d.range.to < app.now())
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message: `The alert was not added: the ${drawingName(d)} is over; extend it to the right first`,
      })
    const condition = drawingCondition(d, p)
    const rule = {
      ...buildAlertRule({ key: k, condition, repeat: p.repeat }, app.now(), {
        lists: app.lists.watchlists,
        fromDrawing: true,
      }),
      service: app.alertService(),
    }
    await app.setRules([...app.rules, rule])
    return rule
  },
}

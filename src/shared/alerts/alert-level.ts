import { z } from 'zod'
import { AlertConditionSchema, type AlertCondition } from './alert'

/**
 * The price levels of an alert condition, as the detail chart draws them (one line per level) and
 * as a dragged line moves them. One rule for the app's command and the renderer: a condition
 * without a price level (% day change, a move in N minutes) has no line and cannot be moved.
 */
export const AlertLevelSchema = z.enum(['price', 'low', 'high'])
export type AlertLevel = z.infer<typeof AlertLevelSchema>

export function alertLevels(c: AlertCondition): Array<{ level: AlertLevel; price: number }> {
  switch (c.kind) {
    case 'above':
    case 'below':
    case 'crosses':
      return [{ level: 'price', price: c.price }]
    case 'channel':
      return [
        { level: 'low', price: c.low },
        { level: 'high', price: c.high },
      ]
    default:
      return []
  }
}

/**
 * The condition with one level moved, checked against the alert schema; a message for the trader
 * when the move is refused (no such level, a channel whose bounds would cross).
 */
export function moveLevel(
  c: AlertCondition,
  level: AlertLevel,
  price: number,
): { ok: true; condition: AlertCondition } | { ok: false; message: string } {
  if (!(Number.isFinite(price) && price > 0))
    return { ok: false, message: 'The level must be a price above zero' }
  let next: unknown = null
  if ((c.kind === 'above' || c.kind === 'below' || c.kind === 'crosses') && level === 'price')
    next = { ...c, price }
  else if (c.kind === 'channel' && level === 'low') next = { ...c, low: price }
  else if (c.kind === 'channel' && level === 'high') next = { ...c, high: price }
  if (next === null) return { ok: false, message: `This alert has no ${level} level to move` }
  const parsed = AlertConditionSchema.safeParse(next)
  if (!parsed.success)
    return { ok: false, message: parsed.error.issues[0]?.message ?? 'The level cannot go there' }
  return { ok: true, condition: parsed.data }
}

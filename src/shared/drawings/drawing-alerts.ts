import type { AlertCondition, AlertRule } from '../alerts/alert'
import type { Drawing, IntervalFamily } from './drawing'
import type { Interval } from '../quote'

/** What the trader asked of an alert on a drawing (the drawing's menu, or `a` with it selected). */
export interface DrawingAlertAsk {
  family: IntervalFamily
  /** The chart's interval: its bars give a line's side before the rule has seen a price. */
  interval: Interval
  direction: 'up' | 'down' | 'any'
  on: 'enter' | 'exit'
}

/** The condition of an alert on `d`, from the drawing as saved. */
export function drawingCondition(d: Drawing, ask: DrawingAlertAsk): AlertCondition {
  const drawing = { id: d.id, family: ask.family }
  if (d.kind === 'range') return { kind: 'rangeCross', drawing, range: d.range, on: ask.on }
  return {
    kind: 'lineCross',
    drawing,
    line: d.line,
    direction: ask.direction,
    interval: ask.interval,
  }
}

type DrawingCondition = Extract<AlertCondition, { kind: 'lineCross' | 'rangeCross' }>

export function isDrawingCondition(c: AlertCondition): c is DrawingCondition {
  return c.kind === 'lineCross' || c.kind === 'rangeCross'
}

/**
 * The rules after a chart's drawings were saved: a rule on a drawing of that chart takes the
 * drawing's place as saved (moved: the engine arms it afresh there), a rule on a drawing no
 * longer there goes with it. Other rules are kept as they are, the same objects.
 */
export function followDrawings(
  rules: readonly AlertRule[],
  chart: { key: string; family: IntervalFamily; drawings: readonly Drawing[] },
): { rules: AlertRule[]; moved: number; removed: number } {
  const byId = new Map(chart.drawings.map((d) => [d.id, d]))
  let moved = 0
  let removed = 0
  const out: AlertRule[] = []
  for (const rule of rules) {
    const c = rule.condition
    if (rule.key !== chart.key || !isDrawingCondition(c) || c.drawing.family !== chart.family) {
      out.push(rule)
      continue
    }
    const d = byId.get(c.drawing.id)
    const next = d === undefined ? null : followed(c, d)
    if (next === null) {
      removed++
      continue
    }
    if (JSON.stringify(next) === JSON.stringify(c)) out.push(rule)
    else {
      moved++
      out.push({ ...rule, condition: next })
    }
  }
  return { rules: out, moved, removed }
}

/** The condition on the drawing's new place; null when the drawing changed kind (no longer fits). */
function followed(c: DrawingCondition, d: Drawing): DrawingCondition | null {
  if (c.kind === 'rangeCross') return d.kind === 'range' ? { ...c, range: d.range } : null
  return d.kind === 'line' ? { ...c, line: d.line } : null
}

import type { AlertRule } from '../../../../shared/alerts/alert'
import { intervalFamily, type IntervalFamily } from '../../../../shared/drawings/drawing'
import type { Interval } from '../../../../shared/quote'
import type { AppState } from '../../state/app-state.svelte'
import type { Tool } from './drawing-edit'
import { drawingMenuItems } from './drawing-menu'
import { DrawingSet, type DrawingAlertAsk } from './drawing-set.svelte'

/** A chart's menu: where, what it is of, its items (CandleChart's ChartPopup). */
interface Popup {
  at: { x: number; y: number }
  label: string
  items: ReadonlyArray<{ label: string; run: () => void }>
}

/**
 * The drawings of the detail chart, wired for the view: the chart's drawing set (its interval
 * family follows the interval), the tool, a tool picked with the keyboard, the drawing whose
 * alert form is open, which drawings carry an alert, each drawing's menu, and the undo keys.
 * Made during the view's set-up.
 */
export class ChartDrawings {
  readonly set: DrawingSet
  tool = $state<Tool>('cursor')
  /** A tool picked with the keyboard, for the layer to place in view (DrawingLayer). */
  place = $state<Tool | null>(null)
  /** The drawing whose alert form is open. */
  alertFor = $state<string | null>(null)
  error = $state<string | null>(null)

  constructor(
    private readonly app: AppState,
    private readonly key: string,
    private readonly interval: () => Interval,
  ) {
    this.set = new DrawingSet(app.api, key, () => this.family)
  }

  /** Minutes to hours share their drawings, days to months theirs (the interval picks). */
  get family(): IntervalFamily {
    return intervalFamily(this.interval())
  }

  /** Drawings with an alert on them (this symbol, this family), armed or fired. */
  get alerted(): Map<string, 'armed' | 'triggered'> {
    // A plain Map built afresh per read (not state): reactivity comes from the alerts read here.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const out = new Map<string, 'armed' | 'triggered'>()
    for (const rule of this.app.alerts) {
      const id = drawingOf(rule, this.key, this.family)
      if (id === null || !rule.enabled) continue
      const s = this.app.alertState(rule.id)?.status
      if (s === 'disabled' || s === 'expired') continue
      out.set(id, s === 'triggered' || s === 'cooldown' ? 'triggered' : 'armed')
    }
    return out
  }

  /** An alert on a drawing: null when made, else why not (also kept in `error`). */
  async alert(id: string, ask: DrawingAlertAsk): Promise<string | null> {
    const why = await this.set.addAlert(id, this.interval(), ask)
    this.error = why
    return why
  }

  /** A drawing's menu at a place in the chart; null for a drawing no longer there. */
  menu(id: string, x: number, y: number, words: string): Popup | null {
    const d = this.set.find(id)
    if (d === undefined) return null
    const items = drawingMenuItems(d, this.app.now, {
      alert: (ask) => void this.alert(id, ask),
      extend: (drawing, right) => {
        if (drawing.kind !== 'range') return
        const end = drawing.range.to ?? Math.max(drawing.range.from + 1, this.app.now)
        this.set.replace({ ...drawing, range: { ...drawing.range, to: right ? null : end } })
      },
      remove: () => this.set.remove(id),
    })
    return { at: { x, y }, label: words, items }
  }

  /** Ctrl+Z undoes, Ctrl+Shift+Z or Ctrl+Y redoes: true when the key was one of them. */
  undoKey(e: KeyboardEvent): boolean {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return false
    const k = e.key.toLowerCase()
    if (k === 'z' && !e.shiftKey) this.set.undo()
    else if ((k === 'z' && e.shiftKey) || k === 'y') this.set.redo()
    else return false
    return true
  }
}

/** The drawing a rule is on, when it is on one of this chart's. */
function drawingOf(rule: AlertRule, key: string, family: IntervalFamily): string | null {
  const c = rule.condition
  if (rule.key !== key || (c.kind !== 'lineCross' && c.kind !== 'rangeCross')) return null
  return c.drawing.family === family ? c.drawing.id : null
}

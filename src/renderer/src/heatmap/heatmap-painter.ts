import type { HeatmapPrefs } from '../../../shared/chart-prefs'
import {
  changeStep,
  changeText,
  hundredthsOf,
  NO_FIGURE_COLOUR,
  STEP_COLOURS,
} from './heatmap-colour'
import { baseAt, changeOf, type HeatRow } from './heatmap-figures'

/** One tile as the painter writes it: its element, its figure's text node, what it shows. */
export interface HeatTile {
  readonly key: string
  readonly row: HeatRow
  readonly el: HTMLElement
  readonly figure: Text
  /** "since": the price the change is measured from (null: no price then). */
  base: number | null
  /** The figure shown, in hundredths of a percent (undefined: nothing written yet). */
  shown: number | null | undefined
  step: number
}

/**
 * The page's price frames while the heatmap is shown, as the wall's (WALL_FRAME_MS): a glance
 * view whose every tile is on screen repaints hundreds of them a frame, where the grid repaints
 * only the rows in view; ten colour changes a second read as live, and each costs a paint.
 */
export const HEAT_FRAME_MS = 100

/**
 * Live figures onto the heatmap, once per applied price frame (the page's, at the grid's pace:
 * no frames of its own): each tile's change is read from its row's newest values (plain fields,
 * no reactive state), and its text and colour are written only when the shown figure moves a
 * hundredth of a percent. Nothing allocates per tile per frame; 500 tiles cost a pass over 500
 * numbers and the few writes that changed.
 */
export class HeatmapPainter {
  private readonly tiles = new Set<HeatTile>()
  private colour: HeatmapPrefs['colour'] = 'day'
  private since: number | null = null

  add(tile: HeatTile): () => void {
    tile.base = this.since === null ? null : baseAt(tile.row, this.since)
    this.tiles.add(tile)
    this.paint(tile)
    return () => this.tiles.delete(tile)
  }

  /**
   * What the tiles show: the day's change, or since a moment (each tile's base read again).
   * Returns how many tiles have no price at that moment (their history is shorter).
   */
  measure(colour: HeatmapPrefs['colour'], since: number | null): number {
    this.colour = colour
    this.since = colour === 'since' ? since : null
    return this.rebase()
  }

  /**
   * The bases of "since" read again (a row's history reaches the moment once it has it): how
   * many tiles still have none.
   */
  rebase(): number {
    let missing = 0
    for (const t of this.tiles) {
      t.base = this.since === null ? null : baseAt(t.row, this.since)
      if (this.since !== null && t.base === null) missing++
      this.paint(t)
    }
    return missing
  }

  /** A price frame was applied: returns how many tiles changed what they show. */
  frame(): number {
    let n = 0
    for (const t of this.tiles) if (this.paint(t)) n++
    return n
  }

  private paint(t: HeatTile): boolean {
    const pct = changeOf(t.row, this.colour, t.base)
    const shown = hundredthsOf(pct)
    if (shown === t.shown) return false
    t.shown = shown
    t.figure.data = changeText(shown)
    const step = changeStep(pct)
    if (step !== t.step) {
      t.step = step
      t.el.style.background = step < 0 ? NO_FIGURE_COLOUR : (STEP_COLOURS[step] ?? NO_FIGURE_COLOUR)
      t.el.dataset.step = String(step)
    }
    return true
  }
}

import type { Drawing } from '../../../../shared/drawings/drawing'

/** Steps of one chart a trader can undo: more than anyone presses Ctrl+Z for. */
export const UNDO_STEPS = 100

/**
 * Undo and redo of one chart's drawings: each step is the whole list as it was (lists are small,
 * at most 100 drawings), so an undo is a save of that list like any other change, and the alerts
 * on the drawings follow it the same way. A new change clears what could be redone.
 */
export class DrawingHistory {
  private past: Drawing[][] = []
  private future: Drawing[][] = []

  /** A change was made; `before` is the list it replaced. */
  record(before: Drawing[]): void {
    this.past.push(before)
    if (this.past.length > UNDO_STEPS) this.past.shift()
    this.future = []
  }

  /** The list before the last change, or null with nothing to undo; `now` can be redone. */
  undo(now: Drawing[]): Drawing[] | null {
    const before = this.past.pop()
    if (before === undefined) return null
    this.future.push(now)
    return before
  }

  /** The list an undo left, or null with nothing to redo. */
  redo(now: Drawing[]): Drawing[] | null {
    const after = this.future.pop()
    if (after === undefined) return null
    this.past.push(now)
    return after
  }

  get canUndo(): boolean {
    return this.past.length > 0
  }

  get canRedo(): boolean {
    return this.future.length > 0
  }

  clear(): void {
    this.past = []
    this.future = []
  }
}

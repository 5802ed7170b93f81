import type { AlertCondition, AlertRuleState } from '../../shared/alerts/alert'
import { lineAt } from '../../shared/drawings/drawing-geometry'
import { bucketStart } from '../../shared/intervals'
import type { BarSource } from './alert-ma'

type LineCross = Extract<AlertCondition, { kind: 'lineCross' }>

/**
 * A 'lineCross' rule's side of its line: the price minus the line's price at each tick's time
 * (shared/drawings/drawing-geometry.ts, the rule the chart draws by). A cross is a change of side
 * between two ticks, so the side before the first tick must come from somewhere:
 *   - the rule's saved state: its last price, at the time it was seen (a restart);
 *   - else the last closed bar of the rule's interval the app holds, its close at its close time
 *     (a rule made a moment ago, or whose state was never saved);
 *   - else none: the first tick only sets the side, and the next one can cross.
 * Kept per rule for the engine's life; the engine says when the side first became known (the
 * hosts then save the state, so a restart knows it too).
 */
export class LineSide {
  /** Price minus the line at the previous tick; null while the side is unknown. */
  private prev: number | null = null
  private seeded = false

  constructor(
    private readonly key: string,
    private readonly c: LineCross,
  ) {}

  /** The line's price at `t`, null where it is not drawn. */
  lineAt(t: number): number | null {
    return lineAt(this.c.line, t)
  }

  /**
   * The side before this tick and this tick's side (`prev`, `now`: price minus the line), the
   * line's price now; `learned` is true when the side became known with this tick.
   */
  step(
    price: number,
    t: number,
    state: AlertRuleState,
    bars: BarSource | null,
  ): { prev: number | null; now: number | null; line: number | null; learned: boolean } {
    if (!this.seeded) {
      this.seeded = true
      this.prev = this.sideBefore(state, bars, t)
    }
    const line = this.lineAt(t)
    const now = line === null ? null : price - line
    const prev = this.prev
    const learned = prev === null && now !== null
    this.prev = now
    return { prev, now, line, learned }
  }

  private sideBefore(state: AlertRuleState, bars: BarSource | null, t: number): number | null {
    if (state.lastPrice !== null && state.lastSeenAt !== null) {
      const line = this.lineAt(state.lastSeenAt)
      if (line !== null) return state.lastPrice - line
    }
    if (bars === null) return null
    const forming = bucketStart(this.c.interval, t)
    const closed = bars(this.key, this.c.interval, 2).filter((b) => b.openTime < forming)
    const last = closed.at(-1)
    if (last === undefined) return null
    const line = this.lineAt(last.closeTime)
    return line === null ? null : last.close - line
  }
}

/** Whether a move from `prev` to `now` (price minus a line) crossed it in `direction`. */
export function crossedThrough(
  prev: number | null,
  now: number | null,
  direction: 'up' | 'down' | 'any',
): boolean {
  if (prev === null || now === null) return false
  const up = prev < 0 && now >= 0
  const down = prev > 0 && now <= 0
  return direction === 'up' ? up : direction === 'down' ? down : up || down
}

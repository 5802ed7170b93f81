import type { CRASH_POINTS } from '../../src/app/alerts/crash-points'

/**
 * What a target hears across the crashed run and the restart, per crash point: the table in
 * docs/alerts-guarantees.md, shared by the walks for stdout, the webhook, the desktop and the
 * browser page. `first`: deliveries before the kill; `heard`: the replayed mark of each delivery
 * in all, in order; `replayed`: whether one of them is marked.
 */
interface Outcome {
  first: number
  heard: boolean[]
  replayed: boolean
}
const outcome = (first: number, heard: boolean[]): Outcome => ({
  first,
  heard,
  replayed: heard.includes(true),
})
export const OUTCOME: Record<(typeof CRASH_POINTS)[number], Outcome> = {
  evaluate: outcome(0, [false]), // nothing recorded: fires afresh after the restart
  'journal-append': outcome(0, [false]), // journalled, never handed over: late
  try: outcome(0, [true]), // said tried, never handed over: late, and marked (it may have it)
  deliver: outcome(1, [false, true]), // handed over, not recorded done: again, marked
  done: outcome(1, [false]),
  'state-save': outcome(1, [false]),
  compaction: outcome(1, [false]),
}

/**
 * The step to arm for `point` in a walk through `target`: a target's own steps (its try line, its
 * delivery and its done record) are armed for that target, the others are shared by every target.
 */
export function armedAt(point: (typeof CRASH_POINTS)[number], target: string): string {
  return point === 'try' || point === 'deliver' || point === 'done' ? `${point}:${target}` : point
}

/**
 * What one walk of a point counted, for the long run's record: a trial, lost when nothing was
 * heard, repeats the target could not tell from a new fire, and deliveries marked replayed (the
 * first one too: after a kill at `try` the only delivery is marked).
 */
export function heard(lines: readonly { replayed?: boolean }[]): {
  trials: number
  lost: number
  repeated: number
  replayed: number
} {
  return {
    trials: 1,
    lost: lines.length === 0 ? 1 : 0,
    repeated: lines.slice(1).filter((l) => l.replayed !== true).length,
    replayed: lines.filter((l) => l.replayed === true).length,
  }
}

/**
 * A walk's time limit: it ends as soon as its conditions hold, so this only bounds a hang. At
 * 60 s one webhook walk ran out under a load average of 16 on the 2-core machine (its checks
 * then passed, a second later).
 */
export const WALK_TIMEOUT_MS = 150_000

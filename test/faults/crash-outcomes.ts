import type { CRASH_POINTS } from '../../src/app/crash-points'

/**
 * What a target hears across the crashed run and the restart, per crash point: the table in
 * docs/alerts-guarantees.md, shared by the walks for stdout, the webhook, the desktop and the
 * browser page.
 */
export const OUTCOME: Record<(typeof CRASH_POINTS)[number], { first: number; replayed: boolean }> =
  {
    evaluate: { first: 0, replayed: false }, // nothing recorded: fires afresh after the restart
    'journal-append': { first: 0, replayed: false }, // journalled, never handed over: late
    deliver: { first: 1, replayed: true }, // handed over, not recorded done: again, marked
    done: { first: 1, replayed: false },
    'state-save': { first: 1, replayed: false },
    compaction: { first: 1, replayed: false },
  }

/**
 * The step to arm for `point` in a walk through `target`: a target's own steps (its delivery and
 * its done record) are armed for that target, the others are shared by every target.
 */
export function armedAt(point: (typeof CRASH_POINTS)[number], target: string): string {
  return point === 'deliver' || point === 'done' ? `${point}:${target}` : point
}

/**
 * What one walk of a point counted, for the long run's record: a trial, lost when nothing was
 * heard, repeats the target could not tell from a new fire, and marked replays.
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
    replayed: lines.slice(1).filter((l) => l.replayed === true).length,
  }
}

/**
 * A walk's time limit: it ends as soon as its conditions hold, so this only bounds a hang. At
 * 60 s one webhook walk ran out under a load average of 16 on the 2-core machine (its checks
 * then passed, a second later).
 */
export const WALK_TIMEOUT_MS = 150_000

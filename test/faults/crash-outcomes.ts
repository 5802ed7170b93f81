import type { CRASH_POINTS } from '../../src/app/crash-points'

/**
 * What a target hears across the crashed run and the restart, per crash point: the table in
 * docs/alerts-guarantees.md, shared by the walks for stdout, the webhook and the desktop.
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

import { FireJournal } from '../../src/core/persistence/fire-journal'
import { openDataStores } from '../../src/core/persistence/stores'

/**
 * Where a random kill -9 landed in a fire, read from the data folder it left. Named after the crash points
 * (src/app/alerts/crash-points.ts) the state lies between:
 * - `before journal-append`: nothing of the fire on disk (killed before, or at, evaluate);
 * - `journal-append`: journalled, no target handed it;
 * - `deliver`: a target's try line written (`try` or `deliver`: the disk cannot tell whether the
 *   hand-off happened), not every owed target recorded done;
 * - `done`: every owed target done, the journal not compacted yet (state-save's side too);
 * - `compaction`: compacted away, the fire in the alert history.
 */
export type KillLanding =
  'before journal-append' | 'journal-append' | 'deliver' | 'done' | 'compaction'

export async function killLanding(dir: string, ruleId: string): Promise<KillLanding> {
  const fire = new FireJournal(dir).read().fires.find((f) => f.alert.ruleId === ruleId)
  if (fire === undefined) {
    const history = (await openDataStores(dir).alertHistory.load()).value
    return history.some((a) => a.ruleId === ruleId) ? 'compaction' : 'before journal-append'
  }
  if (fire.tried.size === 0) return 'journal-append'
  return fire.owed.every((t) => fire.done.has(t)) ? 'done' : 'deliver'
}

/** Counts by landing, for the long run's record. */
export function tally(landings: readonly KillLanding[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const l of landings) out[l] = (out[l] ?? 0) + 1
  return out
}

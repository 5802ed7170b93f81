import { isLeaseLost, type Fence } from '../../core/persistence/fence'
import type { FireJournal, JournalFire } from '../../core/persistence/fire-journal'
import type { FiredAlert } from '../../shared/alerts/alert'
import { crashPoint } from './crash-points'

/**
 * One fire handed to one target, the way every delivery goes: its "try" line before the hand-off,
 * its "done" line once the target took it, a replay and a late delivery marked as such. The
 * journal's writes are fenced (core/persistence/fence.ts): an owner whose lease was taken stops
 * at the first line it cannot write, before the target hears anything.
 */

/**
 * A fire handed to a target this long after it fired (the target was away: a webhook down, no
 * process with a desktop, a folder nobody ran) is delivered marked `late`, never as news.
 */
export const LATE_AFTER_MS = 5 * 60_000

export interface AlertTarget {
  readonly name: string
  /** Resolves (or returns) once the target took the fire; a rejection leaves it owed. */
  deliver(alert: FiredAlert): void | Promise<void>
  /**
   * Why the target takes nothing now (a webhook disabled at load), if it does not: no fire is
   * handed to it, so none counts as tried; each one owed is listed as undelivered with this why.
   */
  readonly refusal?: string | null
}

export interface OutboxEntry extends JournalFire {
  /** Order of firing in the folder (0: read from a journal older than sequence numbers). */
  seq: number
}

export interface HandoffContext {
  journal: FireJournal
  fence: Fence
  now(): number
  /** The target gave up (or refuses): recorded, still owed. */
  gaveUp(entry: OutboxEntry, name: string, e: unknown, at: number): void
  /** The fire's history entry changed (marked replayed). */
  changed(): void
  /** A write found the lease taken (LEASE_LOST), or another problem to tell the trader. */
  failed(e: unknown): void
}

/** Resolves once the target took the fire or gave up (at once for a target that refuses). */
export function handOff(
  entry: OutboxEntry,
  target: AlertTarget,
  ctx: HandoffContext,
): Promise<void> | undefined {
  const name = target.name
  if (target.refusal) {
    ctx.gaveUp(entry, name, new Error(target.refusal), ctx.now())
    return
  }
  // Handed to this target before (a run killed before its done record, a webhook that gave
  // up): it may have it, so this delivery says it is a replay, and the history keeps that.
  const replayed = entry.tried.has(name)
  try {
    // Recorded before the hand-off on purpose: a crash here costs a first delivery marked
    // replayed, where recording after would cost an unmarked repeat. A replay writes no line,
    // but its hand-off is fenced all the same.
    if (replayed) ctx.fence.check()
    else ctx.journal.tried(entry.alert.id, name)
  } catch (e) {
    // The lease was taken: nothing is handed over. Any other refusal (the disk) only means a
    // repeat after a crash would not say it is one; the fire itself is on disk.
    if (isLeaseLost(e)) {
      ctx.failed(e)
      return
    }
  }
  if (replayed && entry.alert.replayed !== true) {
    entry.alert.replayed = true
    ctx.changed()
  }
  if (!replayed) {
    entry.tried.add(name)
    crashPoint('try', name)
  }
  // Tried again (the next start, or the trader's retry): not given up until it fails again.
  entry.gaveUp.delete(name)
  const late = ctx.now() - entry.alert.at > LATE_AFTER_MS
  let result: void | Promise<void>
  try {
    // Per target: the history's copy says a replay happened somewhere; this one says it is.
    result = target.deliver({ ...entry.alert, replayed, ...(late ? { late } : {}) })
  } catch (e) {
    ctx.failed(new Error(`An alert could not reach ${name}: ${String(e)}`))
    return
  }
  const taken = (): void => {
    crashPoint('deliver', name)
    entry.done.add(name)
    try {
      ctx.journal.done(entry.alert.id, name)
      crashPoint('done', name)
    } catch {
      // Only costs a repeat (same fire id) after a crash; the fire itself is on disk.
    }
  }
  if (result instanceof Promise)
    return result.then(taken, (e: unknown) => ctx.gaveUp(entry, name, e, ctx.now()))
  taken()
}

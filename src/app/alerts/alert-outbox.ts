import {
  FireJournal,
  type GaveUp,
  type JournalFire,
  type JournalRead,
} from '../../core/persistence/fire-journal'
import type { AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import { crashPoint } from './crash-points'

/**
 * The alert loop's outbox: each fire made durable in the fire journal before any target hears of
 * it, then handed to each target it is owed to, once, by fire id. A fire a target did not take
 * before a crash is delivered to it at the next start with the same id: late if it was never
 * handed over, marked `replayed` if it was (the target may have it). The journal is compacted
 * to what is still owed once the alert files hold the rest (compact()).
 *
 * Targets are what announce a fire: stdout for `watch --json`, the desktop notification, a
 * webhook. Each fire remembers which targets it was owed to when it fired, so a fire from the
 * app is not printed by a later `tickdesk watch`, and one owed to a webhook is retried by whichever
 * host has that webhook.
 */

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

/** A fire a target gave up on: still owed, until taken, retried or dropped (issue 37). */
export interface UndeliveredFire {
  alert: FiredAlert
  to: string
  why: string
  at: number
}

interface OutboxEntry extends JournalFire {
  /** Order of firing in the folder (0: read from a journal older than sequence numbers). */
  seq: number
}

export class AlertOutbox {
  private readonly journal: FireJournal
  private readonly targets = new Map<string, AlertTarget>()
  /** Fires since the journal was last compacted, and older ones still owed to a target. */
  private entries: OutboxEntry[] = []
  private seq = 0
  private started = false

  constructor(
    dir: string,
    private readonly opts: {
      problem: (code: string, message: string) => void
      /** A fire's history entry changed (marked replayed), or a target gave up on a fire. */
      changed: () => void
      now: () => number
    },
  ) {
    this.journal = new FireJournal(dir)
  }

  /** The last fire's number: compact(savedSeq) keeps what came after a save. */
  get lastSeq(): number {
    return this.seq
  }

  /** The folder's fires so far go up to `seq` (the saved states' and the journal's): count on. */
  continueFrom(seq: number): void {
    this.seq = Math.max(this.seq, seq)
  }

  /** What a previous run left in the journal; its fires are owed from now on (whatever their age). */
  readJournal(): JournalRead {
    const read = this.journal.read()
    if (read.skipped > 0)
      this.opts.problem(
        'ALERT_JOURNAL_DAMAGED',
        `${read.skipped} line(s) of the alert fire journal could not be read (a crash mid-write); the rest was kept.`,
      )
    // Whatever its age: a fire a webhook gave up on is still owed to it (issue 37).
    this.entries = read.fires.map((f) => ({ ...f, seq: f.seq ?? 0 }))
    for (const f of this.entries) this.continueFrom(f.seq)
    return read
  }

  /** Another process took the folder's alerts: what is owed is theirs now. */
  forget(): void {
    this.entries = []
  }

  /** Registered before start(); start() delivers what a previous run still owed them. */
  addTarget(target: AlertTarget): void {
    this.targets.set(target.name, target)
    if (this.started) this.deliverOwed(target)
  }

  removeTarget(name: string): void {
    this.targets.delete(name)
  }

  start(): void {
    this.started = true
    this.deliverOwedToAll()
  }

  deliverOwedToAll(): void {
    if (!this.started) return
    for (const target of this.targets.values()) this.deliverOwed(target)
  }

  /**
   * New fires, with each rule's state after it (stamped with the fire's sequence number):
   * journalled, then announced (none when paused).
   */
  post(
    fires: FiredAlert[],
    stateOf: (ruleId: string, seq: number) => AlertRuleState,
    paused: boolean,
  ): void {
    const owed = paused ? [] : [...this.targets.keys()]
    const entries = fires.map((alert) => {
      const seq = ++this.seq
      return {
        alert,
        state: stateOf(alert.ruleId, seq),
        done: new Set<string>(),
        tried: new Set<string>(),
        gaveUp: new Map<string, GaveUp>(),
        seq,
        owed,
      }
    })
    crashPoint('evaluate')
    try {
      this.journal.fired(entries)
      crashPoint('journal-append')
    } catch (e) {
      // A full disk must not swallow an alert: announce it anyway, marked, and say why.
      for (const entry of entries) entry.alert.notRecorded = true
      this.opts.problem('ALERT_JOURNAL_WRITE', notRecordedWords(e))
    }
    this.entries.push(...entries)
    for (const entry of entries) for (const name of owed) void this.deliverTo(entry, name)
  }

  /**
   * A rule armed afresh (its level moved) while a fire of it is still owed to a target (a webhook
   * that is down): the journal's copy of its state after that fire would bring "triggered" back
   * at the next start, so the copy follows the rule.
   */
  rearm(stateOf: (ruleId: string) => AlertRuleState | null): void {
    let moved = false
    for (const entry of this.entries) {
      const now = stateOf(entry.state.ruleId)
      if (now === null || now.lastFiredAt !== null || entry.state.lastFiredAt === null) continue
      entry.state = now
      moved = true
    }
    if (!moved) return
    try {
      this.journal.rewrite(this.entries)
    } catch {
      // At worst the moved rule reads "triggered" again after a crash; the fire is kept.
    }
  }

  /**
   * The files now hold every fire up to `savedSeq`: the journal keeps only later fires and those
   * still owed to a target.
   */
  compact(savedSeq: number): void {
    const keep = this.entries.filter(
      (e) => e.seq > savedSeq || e.owed.some((name) => !e.done.has(name)),
    )
    if (keep.length === this.entries.length && keep.length > 0) return
    const fired = this.entries.length > 0
    if (fired) crashPoint('state-save')
    try {
      this.journal.rewrite(keep)
      this.entries = keep
      if (fired) crashPoint('compaction')
    } catch {
      // A journal that stays long costs a little disk, nothing else; the next save tries again.
    }
  }

  /** Fires a target gave up on and still owes, oldest first. */
  undelivered(): UndeliveredFire[] {
    const out: UndeliveredFire[] = []
    for (const e of this.entries)
      for (const [to, why] of e.gaveUp)
        if (!e.done.has(to)) out.push({ alert: e.alert, to, ...why })
    return out
  }

  /**
   * Tries again, now, each target that gave up on the fire; resolves once each took it or gave
   * up again. False: no such undelivered fire.
   */
  async retry(fireId: string): Promise<boolean> {
    const entry = this.entries.find((e) => e.alert.id === fireId && e.gaveUp.size > 0)
    if (entry === undefined) return false
    const names = [...entry.gaveUp.keys()].filter((to) => !entry.done.has(to))
    await Promise.all(names.map((to) => this.deliverTo(entry, to)))
    this.opts.changed()
    return true
  }

  /**
   * The trader gives up on it: no longer owed to the targets that gave up, recorded in the
   * journal before the fire's history entry says so. Null: no such undelivered fire.
   */
  drop(fireId: string, at: number): FiredAlert | null {
    const entry = this.entries.find((e) => e.alert.id === fireId && e.gaveUp.size > 0)
    if (entry === undefined) return null
    for (const [to, gave] of entry.gaveUp) {
      if (entry.done.has(to)) continue
      const why = `dropped by the trader; ${gave.why}`.slice(0, 300)
      this.journal.dropped(fireId, to, { why, at })
      entry.done.add(to)
      entry.alert.dropped = [...(entry.alert.dropped ?? []), { to, why, at }]
    }
    entry.gaveUp.clear()
    this.opts.changed()
    return entry.alert
  }

  private gaveUp(entry: OutboxEntry, name: string, e: unknown, at: number): void {
    const why = { why: (e instanceof Error ? e.message : String(e)).slice(0, 300), at }
    entry.gaveUp.set(name, why)
    try {
      this.journal.gaveUp(entry.alert.id, name, why)
    } catch {
      // Shown as undelivered for this run; at the next start it is owed and tried again anyway.
    }
    this.opts.changed()
  }

  private deliverOwed(target: AlertTarget): void {
    for (const entry of this.entries)
      if (entry.owed.includes(target.name) && !entry.done.has(target.name))
        void this.deliverTo(entry, target.name)
  }

  /** Resolves once the target took the fire or gave up (at once for a target that is not here). */
  private deliverTo(entry: OutboxEntry, name: string): Promise<void> | undefined {
    const target = this.targets.get(name)
    if (target === undefined) return
    if (target.refusal) {
      this.gaveUp(entry, name, new Error(target.refusal), this.opts.now())
      return
    }
    // Handed to this target before (a run killed before its done record, a webhook that gave
    // up): it may have it, so this delivery says it is a replay, and the history keeps that.
    const replayed = entry.tried.has(name)
    if (replayed && entry.alert.replayed !== true) {
      entry.alert.replayed = true
      this.opts.changed()
    }
    if (!replayed) {
      entry.tried.add(name)
      try {
        this.journal.tried(entry.alert.id, name)
      } catch {
        // Unrecorded, a repeat after a crash would not say it is one; the fire itself is on disk.
      }
      // Recorded before the hand-off on purpose: a crash here costs a first delivery marked
      // replayed, where recording after would cost an unmarked repeat.
      crashPoint('try', name)
    }
    const took = (): void => {
      entry.done.add(name)
      try {
        this.journal.done(entry.alert.id, name)
        crashPoint('done', name)
      } catch {
        // Only costs a repeat (same fire id) after a crash; the fire itself is on disk.
      }
    }
    // Tried again (the next start, or the trader's retry): not given up until it fails again.
    entry.gaveUp.delete(name)
    let result: void | Promise<void>
    try {
      // Per target: the history's copy says a replay happened somewhere; this one says it is.
      result = target.deliver({ ...entry.alert, replayed })
    } catch (e) {
      this.opts.problem('ALERT_DELIVERY', `An alert could not reach ${name}: ${String(e)}`)
      return
    }
    const taken = (): void => {
      crashPoint('deliver', name)
      took()
    }
    if (result instanceof Promise)
      return result.then(taken, (e: unknown) => this.gaveUp(entry, name, e, this.opts.now()))
    taken()
  }
}

function notRecordedWords(e: unknown): string {
  const code = (e as { code?: unknown }).code
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full'
      : code === 'EIO'
        ? 'the disk failed to write (EIO)'
        : `the disk refused it (${String(e)})`
  return `A fired alert was announced but not recorded: ${why}. Free some space; until then a crash can announce it again or forget it fired.`
}

import { isLeaseLost, type Fence } from '../../core/persistence/fence'
import { FireJournal, type JournalRead } from '../../core/persistence/fire-journal'
import type { AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import { crashPoint } from './crash-points'
import { handOff, type AlertTarget, type HandoffContext, type OutboxEntry } from './alert-handoff'

/**
 * The alert loop's outbox: each fire made durable in the fire journal before any target hears of
 * it, then handed to each target it is owed to, once, by fire id (alert-handoff.ts). A fire a
 * target did not take before a crash is delivered to it at the next start with the same id: late
 * if it was never handed over, marked `replayed` if it was (the target may have it). The journal
 * is compacted to what is still owed once the alert files hold the rest (compact()).
 *
 * Targets are what announce a fire: the desktop notification, every webhook, stdout where that is
 * the process's job. Each fire remembers which targets it was owed to when it fired; one owed to a
 * target that no longer exists (a removed webhook) is dropped with a line in its history entry.
 * Every write is fenced: once the lease is taken, the outbox stops (onLost) and hands nothing on.
 */

export type { AlertTarget } from './alert-handoff'

/** A fire a target gave up on: still owed, until taken, retried or dropped. */
export interface UndeliveredFire {
  alert: FiredAlert
  to: string
  why: string
  at: number
}

export interface OutboxOptions {
  fence: Fence
  problem: (code: string, message: string) => void
  /** A fire's history entry changed (marked replayed, dropped), or a target gave up on a fire. */
  changed: () => void
  /** A write found the lease taken: this process no longer runs the alerts. */
  lost: (e: unknown) => void
  now: () => number
}

export class AlertOutbox {
  private readonly journal: FireJournal
  private readonly targets = new Map<string, AlertTarget>()
  /** Fires since the journal was last compacted, and older ones still owed to a target. */
  private entries: OutboxEntry[] = []
  private seq = 0
  private started = false
  private stopped = false
  private readonly ctx: HandoffContext

  constructor(
    dir: string,
    private readonly opts: OutboxOptions,
  ) {
    this.journal = new FireJournal(dir, opts.fence)
    this.ctx = {
      journal: this.journal,
      fence: opts.fence,
      now: opts.now,
      gaveUp: (entry, name, e, at) => this.gaveUp(entry, name, e, at),
      changed: () => opts.changed(),
      failed: (e) => this.failed(e),
    }
  }

  /** The last fire's number: compact(savedSeq) keeps what came after a save. */
  get lastSeq(): number {
    return this.seq
  }

  /** The folder's fires so far go up to `seq` (the saved states' and the journal's): count on. */
  continueFrom(seq: number): void {
    this.seq = Math.max(this.seq, seq)
  }

  /** What a previous owner left in the journal; its fires are owed from now on, whatever their age. */
  readJournal(): JournalRead {
    const read = this.journal.read()
    if (read.skipped > 0)
      this.opts.problem(
        'ALERT_JOURNAL_DAMAGED',
        `${read.skipped} line(s) of the alert fire journal could not be read (a crash mid-write); the rest was kept.`,
      )
    this.entries = read.fires.map((f) => ({ ...f, seq: f.seq ?? 0 }))
    for (const f of this.entries) this.continueFrom(f.seq)
    return read
  }

  /** The lease was taken: nothing more is written or handed on by this outbox. */
  stop(): void {
    this.stopped = true
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
    for (const target of this.targets.values()) this.deliverOwed(target)
  }

  /**
   * New fires, with each rule's state after it (stamped with the fire's sequence number):
   * journalled, then announced to `owed` (none when paused). Throws LEASE_LOST, having announced
   * nothing, when the lease was taken.
   */
  post(
    fires: FiredAlert[],
    stateOf: (ruleId: string, seq: number) => AlertRuleState,
    owes: (target: string) => boolean,
    paused: boolean,
  ): void {
    if (this.stopped) return
    const owed = paused ? [] : [...this.targets.keys()].filter(owes)
    const entries: OutboxEntry[] = fires.map((alert) => {
      const seq = ++this.seq
      const state = stateOf(alert.ruleId, seq)
      return { alert, state, done: new Set(), tried: new Set(), gaveUp: new Map(), seq, owed }
    })
    crashPoint('evaluate')
    try {
      this.journal.fired(entries)
      crashPoint('journal-append')
    } catch (e) {
      if (isLeaseLost(e)) throw e
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
    if (moved) this.rewrite(this.entries)
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
    if (this.rewrite(keep)) {
      this.entries = keep
      if (fired) crashPoint('compaction')
    }
  }

  /** Fires a target gave up on and still owes, oldest first. */
  undelivered(): UndeliveredFire[] {
    return undeliveredOf(this.entries)
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
    const gave = [...entry.gaveUp].filter(([to]) => !entry.done.has(to))
    this.dropFor(
      entry,
      gave.map(([to, g]) => ({ to, why: `dropped by the trader; ${g.why}` })),
      at,
    )
    entry.gaveUp.clear()
    return entry.alert
  }

  /**
   * Fires owed to a target that no longer exists (a webhook removed from webhooks.json) are owed
   * no more: each gets a "dropped" line and its history entry says for which target. Returns the
   * fires whose entries changed.
   */
  dropGone(exists: (target: string) => boolean, at: number): FiredAlert[] {
    const changed: FiredAlert[] = []
    for (const entry of this.entries) {
      const gone = entry.owed.filter((to) => !entry.done.has(to) && !exists(to))
      if (gone.length === 0) continue
      this.dropFor(
        entry,
        gone.map((to) => ({ to, why: 'the target was removed before it took the alert' })),
        at,
      )
      for (const to of gone) entry.gaveUp.delete(to)
      changed.push(entry.alert)
    }
    return changed
  }

  private dropFor(entry: OutboxEntry, drops: { to: string; why: string }[], at: number): void {
    for (const { to, why: long } of drops) {
      const why = long.slice(0, 300)
      try {
        this.journal.dropped(entry.alert.id, to, { why, at })
      } catch (e) {
        this.failed(e)
        return
      }
      entry.done.add(to)
      entry.alert.dropped = [...(entry.alert.dropped ?? []), { to, why, at }]
    }
    this.opts.changed()
  }

  private rewrite(entries: OutboxEntry[]): boolean {
    if (this.stopped) return false
    try {
      this.journal.rewrite(entries)
      return true
    } catch (e) {
      // A journal that stays long costs a little disk, nothing else; the next save tries again.
      if (isLeaseLost(e)) this.failed(e)
      return false
    }
  }

  private gaveUp(entry: OutboxEntry, name: string, e: unknown, at: number): void {
    if (this.stopped) return
    const why = { why: (e instanceof Error ? e.message : String(e)).slice(0, 300), at }
    entry.gaveUp.set(name, why)
    try {
      this.journal.gaveUp(entry.alert.id, name, why)
    } catch (err) {
      // Shown as undelivered for this run; at the next start it is owed and tried again anyway.
      if (isLeaseLost(err)) return this.failed(err)
    }
    this.opts.changed()
  }

  private failed(e: unknown): void {
    if (isLeaseLost(e)) {
      if (this.stopped) return
      this.stopped = true
      this.opts.lost(e)
      return
    }
    this.opts.problem('ALERT_DELIVERY', e instanceof Error ? e.message : String(e))
  }

  private deliverOwed(target: AlertTarget): void {
    for (const entry of this.entries)
      if (entry.owed.includes(target.name) && !entry.done.has(target.name))
        void this.deliverTo(entry, target.name)
  }

  private deliverTo(entry: OutboxEntry, name: string): Promise<void> | undefined {
    const target = this.targets.get(name)
    if (target === undefined || this.stopped) return
    return handOff(entry, target, this.ctx)
  }
}

/** The fires of `entries` a target gave up on and still owes, oldest first. */
export function undeliveredOf(
  entries: readonly Pick<OutboxEntry, 'alert' | 'gaveUp' | 'done'>[],
): UndeliveredFire[] {
  const out: UndeliveredFire[] = []
  for (const e of entries)
    for (const [to, why] of e.gaveUp) if (!e.done.has(to)) out.push({ alert: e.alert, to, ...why })
  return out
}

function notRecordedWords(e: unknown): string {
  const code = (e as { code?: unknown }).code
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full. Free some space'
      : code === 'EROFS'
        ? 'the data folder is on a read-only disk'
        : code === 'EIO'
          ? 'the disk failed to write (EIO)'
          : `the disk refused it (${String(e)})`
  return `A fired alert was announced but not recorded: ${why}; until then a crash can announce it again or forget it fired.`
}

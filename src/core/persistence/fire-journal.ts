import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { AlertRuleStateSchema, FiredAlertSchema, type FiredAlert } from '../../shared/alerts/alert'
import type { AlertRuleState } from '../../shared/alerts/alert'
import { errnoCode } from './atomic-file'
import { NO_LEASE, type Fence } from './fence'

/**
 * The alert fire journal: what makes a fire durable before anyone hears of it, and announcing it
 * idempotent. One JSON line per event, appended synchronously:
 *
 *   {"fired": FiredAlert, "state": AlertRuleState, "owed": [target …], "seq": n}
 *                                                      the rule fired; its state after the fire;
 *                                                      the targets that must hear of it (flushed
 *                                                      to the disk: fdatasync); n orders
 *                                                      fires across runs (not the clock)
 *   {"try": fireId, "to": target}                      about to hand the fire to one target
 *   {"done": fireId, "to": target}                     the fire reached one target (stdout, the
 *                                                      desktop, a webhook …)
 *   {"gaveUp": fireId, "to": target, "why", "at"}      the target's delivery gave up: still owed,
 *                                                      shown as undelivered
 *   {"dropped": fireId, "to": target, "why", "at"}     the trader dropped it: no longer owed (its
 *                                                      history entry says so)
 *
 * A loop writes "fired" before it announces, "try" before each target hears of it and "done"
 * after it took the fire, so a process killed at any moment restarts knowing every fire (no
 * once-alert fires twice: its state is replayed) and which targets still owe it: owed and never
 * tried is announced late, tried and not done is announced again with the same id and marked
 * replayed (the target may have it: no order of announcing and recording closes that window).
 * Synchronous because there must be no await between deciding and recording; fires are rare
 * (a trader's alerts), so the cost is a few small writes per fire, not per tick.
 *
 * Only "fired" is flushed to the disk. "try" and "done" need only reach the kernel, which a kill
 * -9 keeps; a power cut that loses one costs a marked replay, nothing else. Flushing "done" too
 * held the replay window open for a whole fdatasync (tens of ms on a slow disk): the exactly-once
 * test's kill, sent as soon as a line was printed, landed in it on a slower machine.
 *
 * A line torn by a kill mid-append is skipped on reading (it can only be the last one); the
 * loop compacts the journal once the alert files hold what it says (rewrite(): temp + rename).
 *
 * Only the folder's alert owner writes it: every append and the compaction's rename ask the
 * fence first (fence.ts), synchronously, so a process whose lease was taken cannot add a line.
 * Reading is for anyone (a standby shows the owner's fires from it).
 */

const FiredLineSchema = z.object({
  fired: FiredAlertSchema,
  state: AlertRuleStateSchema,
  owed: z.array(z.string()).default([]),
  seq: z.number().int().nonnegative().optional(),
})
const DoneLineSchema = z.object({ done: z.string(), to: z.string() })
const TryLineSchema = z.object({ try: z.string(), to: z.string() })
const GaveUpLineSchema = z.object({
  gaveUp: z.string(),
  to: z.string(),
  why: z.string(),
  at: z.number(),
})
const DroppedLineSchema = z.object({
  dropped: z.string(),
  to: z.string(),
  why: z.string(),
  at: z.number(),
})

/** Why a target has not taken a fire, and since when (its last attempt's end). */
export interface GaveUp {
  why: string
  at: number
}

export interface JournalFire {
  alert: FiredAlert
  state: AlertRuleState
  /** Targets it was owed to when it fired. */
  owed: string[]
  /**
   * Its place in the folder's order of fires (grows across runs and owners): replay and rule
   * states are ordered by it, never by the wall clock. Absent in a journal older than it.
   */
  seq?: number
  /** Targets that took it. */
  done: Set<string>
  /** Targets it was handed to (they may have it even when not done: a replay says so). */
  tried: Set<string>
  /**
   * Targets whose delivery gave up (a webhook after 15 min of retries, a 410): still owed, shown
   * as undelivered until taken, retried or dropped by the trader.
   */
  gaveUp: Map<string, GaveUp>
}

export interface JournalRead {
  /** In the order they fired. */
  fires: JournalFire[]
  /** Lines that did not parse (a torn last line after a kill, or damage). */
  skipped: number
}

export const JOURNAL_FILE = 'alert-fires.ndjson'

export class FireJournal {
  readonly path: string
  /**
   * This process rewrote the journal empty and has appended nothing since: it is empty as written,
   * and rewriting it empty again (each minute's save at rest) would only cost the disk a write and
   * three flushes. False until then (a journal left by an earlier owner holds what it holds).
   */
  private emptyAsWritten = false

  constructor(
    dir: string,
    private readonly fence: Fence = NO_LEASE,
  ) {
    this.path = join(dir, JOURNAL_FILE)
  }

  read(): JournalRead {
    let text: string
    try {
      text = readFileSync(this.path, 'utf8')
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') return { fires: [], skipped: 0 }
      throw e
    }
    const byId = new Map<string, JournalFire>()
    let skipped = 0
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue
      let raw: unknown
      try {
        raw = JSON.parse(line)
      } catch {
        skipped++
        continue
      }
      const fired = FiredLineSchema.safeParse(raw)
      if (fired.success) {
        const known = byId.get(fired.data.fired.id)
        if (known === undefined)
          byId.set(fired.data.fired.id, {
            alert: fired.data.fired,
            state: fired.data.state,
            owed: fired.data.owed,
            ...(fired.data.seq === undefined ? {} : { seq: fired.data.seq }),
            done: new Set(),
            tried: new Set(),
            gaveUp: new Map(),
          })
        continue
      }
      const gaveUp = GaveUpLineSchema.safeParse(raw)
      if (gaveUp.success) {
        const { why, at } = gaveUp.data
        byId.get(gaveUp.data.gaveUp)?.gaveUp.set(gaveUp.data.to, { why, at })
        continue
      }
      const dropped = DroppedLineSchema.safeParse(raw)
      if (dropped.success) {
        // The trader dropped it: no longer owed, and its history entry says so.
        const f = byId.get(dropped.data.dropped)
        if (f === undefined) continue
        const { to, why, at } = dropped.data
        f.done.add(to)
        f.gaveUp.delete(to)
        if (!(f.alert.dropped ?? []).some((d) => d.to === to))
          f.alert.dropped = [...(f.alert.dropped ?? []), { to, why, at }]
        continue
      }
      const done = DoneLineSchema.safeParse(raw)
      if (done.success) {
        byId.get(done.data.done)?.done.add(done.data.to)
        continue
      }
      const tried = TryLineSchema.safeParse(raw)
      if (tried.success) byId.get(tried.data.try)?.tried.add(tried.data.to)
      else skipped++
    }
    return { fires: [...byId.values()], skipped }
  }

  gaveUp(fireId: string, target: string, why: GaveUp): void {
    this.append([JSON.stringify({ gaveUp: fireId, to: target, ...why })], false)
  }

  /** The trader dropped a fire a target gave up on: flushed, as the fire itself was. */
  dropped(fireId: string, target: string, why: GaveUp): void {
    this.append([JSON.stringify({ dropped: fireId, to: target, ...why })], true)
  }

  fired(fires: Omit<JournalFire, 'done' | 'tried' | 'gaveUp'>[]): void {
    this.append(fires.map(firedLine), true)
  }

  tried(fireId: string, target: string): void {
    this.append([JSON.stringify({ try: fireId, to: target })], false)
  }

  done(fireId: string, target: string): void {
    this.append([JSON.stringify({ done: fireId, to: target })], false)
  }

  /**
   * Replaces the journal with `fires` (those still owed to a target), atomically; nothing to do
   * when it is empty as written and stays so, though the fence is still asked, as a write would.
   */
  rewrite(fires: JournalFire[]): void {
    if (fires.length === 0 && this.emptyAsWritten) {
      this.fence.check()
      return
    }
    const lines: string[] = []
    for (const f of fires) {
      lines.push(firedLine(f))
      for (const to of f.tried) lines.push(JSON.stringify({ try: f.alert.id, to }))
      for (const to of f.done) lines.push(JSON.stringify({ done: f.alert.id, to }))
      for (const [to, why] of f.gaveUp)
        lines.push(JSON.stringify({ gaveUp: f.alert.id, to, ...why }))
    }
    const temp = `${this.path}.compact`
    writeDurably(temp, 'w', lines, true)
    this.fence.check()
    renameSync(temp, this.path)
    // The rename is an entry in the directory: without this a power cut can bring back the old
    // journal (or none) with the old file gone.
    syncDirectory(dirname(this.path))
    this.emptyAsWritten = lines.length === 0
  }

  private append(lines: string[], flush: boolean): void {
    this.fence.check()
    this.emptyAsWritten = false
    writeDurably(this.path, 'a', lines, flush)
  }
}

function firedLine(f: Omit<JournalFire, 'done' | 'tried' | 'gaveUp'>): string {
  return JSON.stringify({ fired: f.alert, state: f.state, owed: f.owed, seq: f.seq })
}

/**
 * Whole lines or nothing: a short write is continued until every byte is written, and a write
 * that fails part-way (ENOSPC, EIO) is cut back to where it started, so a failed append can
 * never glue half a line to the next one.
 */
function writeDurably(path: string, flags: 'a' | 'w', lines: string[], flush: boolean): void {
  // 'a+': the last byte is read to find a torn line (appends still go to the end).
  const fd = openSync(path, flags === 'a' ? 'a+' : 'w', 0o600)
  try {
    // After a line torn by a kill (or a power cut), a new line starts on a line of its own: glued
    // to the torn one it would be skipped with it, and so would a whole line whose newline alone
    // was lost. The torn line stays skipped; nothing after it is.
    const apart = flags === 'a' && !endsLine(fd) ? '\n' : ''
    if (lines.length > 0) writeWhole(fd, Buffer.from(apart + lines.join('\n') + '\n'))
    // A kill -9 keeps what reached the kernel; the sync is for a power cut or an OS crash.
    if (flush) fdatasyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** True when the file is empty or its last byte ends a line. */
function endsLine(fd: number): boolean {
  const size = fstatSync(fd).size
  if (size === 0) return true
  const last = Buffer.alloc(1)
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a
}

function writeWhole(fd: number, bytes: Buffer): void {
  const start = fstatSync(fd).size
  let written = 0
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written)
  } catch (e) {
    try {
      ftruncateSync(fd, start)
    } catch {
      // The reader skips a torn last line; the fire's caller already knows it failed.
    }
    throw e
  }
}

function syncDirectory(dir: string): void {
  let fd: number | null = null
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Some filesystems refuse a directory fsync (EINVAL): nothing more can be done there.
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

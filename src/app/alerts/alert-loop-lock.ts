import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'

/**
 * One alert loop per data folder: the lock file `alerts.lock` names the process that runs the
 * alerts (evaluates rules, writes the fire journal, announces). Every host (the app in either
 * host, `tickdesk watch`, `tickdesk alerts run`) asks for it; the others say who has it and ask
 * again every second, so they take over within a second or two of the owner's death. Without it
 * two loops fired one crossing under two fire ids (issue 37).
 *
 * Why not a library or the OS lock: Node has no flock()/fcntl() without a native add-on (an
 * install-time build on every trader's machine). proper-lockfile judges an owner by the lock's
 * mtime, so a kill -9'd owner blocks until its lock is stale (10 s by default) and a paused
 * (SIGSTOP, laptop sleep) owner is taken over while alive. Here the lock says who holds it, and
 * liveness is asked of the OS:
 *
 *   alerts.lock  {"pid", "started", "host", "by", "since"}
 *     pid, started   the owner's pid and its start time in clock ticks since boot (Linux
 *                    /proc/<pid>/stat field 22): a pid reused by another program after a crash
 *                    does not pass for the owner. Elsewhere `started` is null and the pid alone
 *                    decides.
 *     host           hostname: a lock taken on another machine (a synced folder) is never
 *                    judged dead from here.
 *     by, since      what the trader is told: "alerts are run by `tickdesk alerts run`, pid 4242,
 *                    since 09:30".
 *
 * Taking it: the content is written to a file of our own and hard-linked to `alerts.lock`; link()
 * fails if the name exists, so creation is exclusive and a reader never sees a half-written lock.
 * A dead owner's lock is first renamed aside (one taker wins the rename) and removed only if what
 * was moved is the dead owner's lock; if a live taker's lock was moved instead (two takers raced),
 * it is put back. An owner checks every second that the lock still names it and stops running
 * alerts the moment it does not, so even a lost race ends with one loop.
 */

const LockSchema = z.object({
  pid: z.number().int(),
  started: z.string().nullable(),
  host: z.string(),
  by: z.string(),
  since: z.number(),
})
export type LockOwner = z.infer<typeof LockSchema>

export type LockAttempt = { owned: true } | { owned: false; owner: LockOwner | null }

/** Start time of a process (Linux), so a reused pid is not taken for the owner; null elsewhere. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 2 (comm) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19] ?? null
  } catch {
    return null
  }
}

/** Whether the process that wrote `owner` still runs (on this machine: the OS answers). */
export function ownerAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true
  if (owner.pid === process.pid) return owner.started === processStart(process.pid)
  try {
    process.kill(owner.pid, 0)
  } catch (e) {
    // EPERM: it runs, as another user.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return owner.started === null || owner.started === processStart(owner.pid)
}

export class AlertLoopLock {
  readonly path: string
  private readonly me: LockOwner

  constructor(
    dir: string,
    by: string,
    now: number,
    private readonly pid = process.pid,
  ) {
    this.path = join(dir, 'alerts.lock')
    this.me = { pid, started: processStart(pid), host: hostname(), by, since: now }
  }

  /** Takes the lock if it is free or its owner is dead; otherwise says who has it. */
  acquire(): LockAttempt {
    for (let round = 0; round < 3; round++) {
      if (this.link()) return { owned: true }
      const owner = this.read()
      if (owner !== null && sameOwner(owner, this.me)) return { owned: true }
      if (owner !== null && ownerAlive(owner)) return { owned: false, owner }
      if (owner === null && !this.exists()) continue // released meanwhile: try again
      this.removeDead(owner)
    }
    return { owned: false, owner: this.read() }
  }

  /** Still named by the lock (checked each second by the owner). */
  holds(): boolean {
    const owner = this.read()
    return owner !== null && sameOwner(owner, this.me)
  }

  owner(): LockOwner | null {
    return this.read()
  }

  release(): void {
    if (!this.holds()) return
    try {
      unlinkSync(this.path)
    } catch {
      // Gone already: nothing to release.
    }
  }

  private link(): boolean {
    const mine = `${this.path}.${this.pid}`
    writeFileSync(mine, JSON.stringify(this.me), { mode: 0o600 })
    try {
      linkSync(mine, this.path)
      return true
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw e
    } finally {
      unlinkSync(mine)
    }
  }

  private read(): LockOwner | null {
    try {
      const parsed = LockSchema.safeParse(JSON.parse(readFileSync(this.path, 'utf8')))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }

  private exists(): boolean {
    try {
      readFileSync(this.path)
      return true
    } catch {
      return false
    }
  }

  /** A dead owner's (or an unreadable) lock, moved aside and removed; a live one put back. */
  private removeDead(dead: LockOwner | null): void {
    const aside = `${this.path}.dead.${this.pid}`
    try {
      renameSync(this.path, aside)
    } catch {
      return // another taker moved it first
    }
    let moved: LockOwner | null = null
    try {
      moved = LockSchema.parse(JSON.parse(readFileSync(aside, 'utf8')))
    } catch {
      // Unreadable: nobody can be named by it.
    }
    if (moved !== null && (dead === null || !sameOwner(moved, dead)) && ownerAlive(moved)) {
      try {
        linkSync(aside, this.path)
      } catch {
        // A third taker holds it now; the one we moved sees it lost the lock and stands down.
      }
    }
    try {
      unlinkSync(aside)
    } catch {
      // Already gone.
    }
  }
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.started === b.started && a.host === b.host && a.since === b.since
}

/** "alerts are run by `tickdesk alerts run`, pid 4242, since 09:30" (this machine's time of day). */
export function ownerWords(owner: LockOwner | null): string {
  if (owner === null) return 'alerts are run by another process on this data folder'
  const at = new Date(owner.since)
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`
  return `alerts are run by ${owner.by}, pid ${owner.pid}, since ${hhmm}`
}

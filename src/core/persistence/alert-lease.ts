import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { Clock } from '../clock'
import { errnoCode } from './atomic-file'
import { leaseLost, type Fence } from './fence'
import {
  claimedEpochs,
  claimExists,
  createClaim,
  pidRuns,
  pruneClaims,
  readClaim,
  readLease,
  writeLease,
  type Lease,
  type LeaseText,
} from './lease-file'

/**
 * Which process runs a data folder's alerts: the one holding its lease (the files: lease-file.ts).
 *
 * Liveness is a heartbeat, never a pid. The holder rewrites the lease every LEASE_RENEW_MS with
 * its beat counted up. Any other process judges the lease by what it sees change, on its own
 * monotonic clock: a lease whose content has not changed for LEASE_TTL_MS is expired, whatever
 * the pid, the host or the OS say (a stopped process, a hung main process, a reused pid, a lock
 * from another machine or an old hostname all end the same way). No two clocks are compared.
 * Free at once, before that: a lease given up on purpose (`released`), and one whose holder's
 * pid no longer exists on this very machine (a kill -9; a pid that exists proves nothing).
 *
 * Fencing. Each acquisition takes the next epoch by creating `alerts.claim.<E>` exclusively: of
 * any number of takers, one creates it, the others see it exists and stand by. Epoch E is fenced
 * from the moment claim E+1 exists or the lease names a later epoch; every write of the alerts'
 * files calls check() first (fence.ts), so the holder of an old epoch cannot write and learns
 * it at its next write or renewal, whichever comes first.
 *
 *   look()   what a process that does not hold the lease sees: who holds it, and whether it is
 *            free for this process to claim now
 *   claim()  the epoch E the look found next (the highest claimed or leased + 1); null when
 *            another process claimed E first
 *   HeldLease.renew()    fenced, then the lease rewritten in place (beat + 1)
 *   HeldLease.release()  fenced, then the lease rewritten `released`
 */

export const LEASE_RENEW_MS = 1_000
/** Unchanged this long (by the reader's own clock) and the lease is expired. */
export const LEASE_TTL_MS = 5_000

export interface LeaseLook {
  /** This process may claim the lease now. */
  free: boolean
  /** Who the lease names (the last holder); null when none ever did or it cannot be read. */
  holder: Lease | null
  /** A later epoch claimed than the lease names: a take-over under way (or one that died). */
  taking: boolean
  /** The epoch a claim after this look takes: one past the highest leased or claimed. */
  next: number
}

export interface LeaseOptions {
  /** Who the lease names while this process holds it. */
  role: string
  /** The wall clock, for `since` (what the trader reads), never for expiry. */
  clock: Clock
  /** A monotonic clock in ms (default performance.now): expiry is measured on it. */
  elapsed?: () => number
  ttlMs?: number
  host?: string
  pid?: number
}

export class AlertLease {
  private readonly elapsed: () => number
  private readonly host: string
  private readonly pid: number
  private readonly ttlMs: number
  /** What was last seen of the lease, and since when (monotonic) it has not changed. */
  private seen: { key: string; at: number } | null = null

  constructor(
    readonly dir: string,
    private readonly opts: LeaseOptions,
  ) {
    this.elapsed = opts.elapsed ?? (() => performance.now())
    this.host = opts.host ?? hostname()
    this.pid = opts.pid ?? process.pid
    this.ttlMs = opts.ttlMs ?? LEASE_TTL_MS
  }

  /** Reads the lease; throws the OS error when the folder cannot be read. */
  look(): LeaseLook {
    const text = readLease(this.dir)
    const top = claimedEpochs(this.dir)[0] ?? 0
    const holder = text.kind === 'lease' ? text.lease : null
    const taking = top > (holder?.epoch ?? 0)
    const now = this.elapsed()
    const key = `${lookKey(text)}|${top}`
    if (this.seen?.key !== key) this.seen = { key, at: now }
    const next = Math.max(holder?.epoch ?? 0, top) + 1
    const look = (free: boolean): LeaseLook => ({ free, holder, taking, next })
    if (text.kind === 'none' && top === 0) return look(true)
    if (holder?.released === true && !taking) return look(true)
    // The process the lease (or a take-over's claim) names is gone from this machine.
    const named = taking ? readClaim(this.dir, top) : holder
    if (named !== null && this.goneFromHere(named)) return look(true)
    return look(now - this.seen.at >= this.ttlMs)
  }

  /**
   * Claims the epoch `look` found next, once it found the lease free: of any number of takers
   * that saw the same, one creates the claim and the others get null (they do not claim past
   * it: that would fence a winner that did nothing wrong). Throws the OS error when the folder
   * cannot take the claim (read-only, full, no rights).
   */
  claim(look: LeaseLook): HeldLease | null {
    const epoch = look.next
    const me = { pid: this.pid, host: this.host, role: this.opts.role }
    if (!createClaim(this.dir, epoch, me)) return null
    this.seen = null
    return new HeldLease(this.dir, {
      epoch,
      token: randomUUID(),
      ...me,
      since: this.opts.clock.now(),
      beat: 0,
    })
  }

  private goneFromHere(named: { pid: number; host: string }): boolean {
    return named.host === this.host && named.pid !== this.pid && !pidRuns(named.pid)
  }
}

/** The lease as this process holds it: a Fence for every write of the alerts' files. */
export class HeldLease implements Fence {
  private lease: Lease

  constructor(
    readonly dir: string,
    lease: Lease,
  ) {
    this.lease = lease
  }

  get epoch(): number {
    return this.lease.epoch
  }

  /** What the lease says of this process (role, host, pid, since). */
  get holder(): Lease {
    return this.lease
  }

  check(): void {
    const text = readLease(this.dir)
    if (text.kind === 'lease' && text.lease.epoch > this.lease.epoch)
      throw leaseLost(`the alerts were taken over by ${holderWords(text.lease)}`)
    if (claimExists(this.dir, this.lease.epoch + 1))
      throw leaseLost('another process is taking over the alerts on this data folder')
  }

  /** Throws LEASE_LOST when fenced, or the OS error when the disk refuses the write. */
  renew(): void {
    this.check()
    this.lease = { ...this.lease, beat: this.lease.beat + 1 }
    writeLease(this.dir, this.lease)
    if (this.lease.beat === 1) pruneClaims(this.dir, this.lease.epoch - 1)
  }

  /** Gives the lease up (a clean exit): the next process takes it at once. Never throws. */
  release(): void {
    try {
      this.check()
      writeLease(this.dir, { ...this.lease, released: true })
    } catch {
      // Lost already, or the disk refuses: others take it when it expires.
    }
  }
}

function lookKey(text: LeaseText): string {
  if (text.kind !== 'lease') return text.kind
  const l = text.lease
  return `${l.epoch}:${l.token}:${l.beat}:${l.released === true}`
}

/** "`tickdesk alerts run` (pid 4242 on studio)". */
export function holderWords(lease: Pick<Lease, 'role' | 'pid' | 'host'>): string {
  return `${lease.role} (pid ${lease.pid} on ${lease.host})`
}

/**
 * Why the folder cannot hold a lease, in the trader's words, from the OS error a claim or a
 * renewal met.
 */
export function unwritableWords(e: unknown): string {
  const code = errnoCode(e)
  if (code === 'EROFS') return 'the data folder is on a read-only disk'
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full'
  if (code === 'EACCES' || code === 'EPERM') return 'this user may not write in the data folder'
  return `the data folder refused a write (${code ?? String(e)})`
}

import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { errnoCode } from './atomic-file'
import { parseJsonAs } from './json-store'

/**
 * The alerts lease on disk (the protocol is in alert-lease.ts):
 *
 *   alerts.lease        one JSON object, padded with spaces to LEASE_BYTES and rewritten in place
 *                       at offset 0 by its holder every second: no new file, no rename, no hard
 *                       link, so it works on FAT/exFAT and keeps working on a full disk.
 *   alerts.claim.<E>    created with O_EXCL (open 'wx') by the one process that claims epoch E;
 *                       it holds who claimed it ({"pid","host","role"}) when the disk takes that.
 *
 * A reader that catches a rewrite half-way gets text that does not parse: it is "unreadable",
 * which counts as a change (never as an expiry).
 */

export const LEASE_FILE = 'alerts.lease'
export const CLAIM_PREFIX = 'alerts.claim.'
export const LEASE_BYTES = 512

export const LeaseSchema = z.object({
  epoch: z.number().int().positive(),
  /** Random per acquisition: two claims of one epoch (a lost race) never pass for each other. */
  token: z.string().min(1).max(64),
  /** Who the trader is told runs the alerts: "the Tickdesk app", "`tickdesk alerts run`". */
  role: z.string().max(80),
  host: z.string().max(255),
  pid: z.number().int(),
  /** When this epoch was taken (the holder's wall clock; for the trader's eyes only). */
  since: z.number(),
  /** Counts renewals: a reader judges liveness by whether it changes, not by any clock. */
  beat: z.number().int().nonnegative(),
  /** Given up on purpose (a clean exit): free at once, no wait. */
  released: z.boolean().optional(),
})
export type Lease = z.infer<typeof LeaseSchema>

export const ClaimSchema = z.object({ pid: z.number().int(), host: z.string(), role: z.string() })
export type Claim = z.infer<typeof ClaimSchema>

export type LeaseText = { kind: 'none' } | { kind: 'unreadable' } | { kind: 'lease'; lease: Lease }

export function readLease(dir: string): LeaseText {
  let text: string
  try {
    text = readFileSync(join(dir, LEASE_FILE), 'utf8')
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return { kind: 'none' }
    throw e
  }
  const lease = parseJsonAs(LeaseSchema, text)
  return lease === null ? { kind: 'unreadable' } : { kind: 'lease', lease }
}

/** Rewrites the lease in place (created if absent); throws the OS error when the disk refuses. */
export function writeLease(dir: string, lease: Lease): void {
  const text = JSON.stringify(lease)
  if (Buffer.byteLength(text) > LEASE_BYTES) throw new Error('lease too long')
  const bytes = Buffer.alloc(LEASE_BYTES, 0x20)
  bytes.write(text, 0, 'utf8')
  const path = join(dir, LEASE_FILE)
  let fd: number
  try {
    fd = openSync(path, 'r+')
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') throw e
    fd = openSync(path, 'w', 0o600)
  }
  try {
    let written = 0
    while (written < bytes.length)
      written += writeSync(fd, bytes, written, bytes.length - written, written)
  } finally {
    closeSync(fd)
  }
}

/** Creates the claim of `epoch`; false when another process created it first. */
export function createClaim(dir: string, epoch: number, claim: Claim): boolean {
  let fd: number
  try {
    fd = openSync(join(dir, `${CLAIM_PREFIX}${epoch}`), 'wx', 0o600)
  } catch (e) {
    if (errnoCode(e) === 'EEXIST') return false
    throw e
  }
  try {
    writeSync(fd, JSON.stringify(claim))
  } catch {
    // A full disk: the claim stands (its name is what counts); who made it is just not said.
  } finally {
    closeSync(fd)
  }
  return true
}

/** Epochs claimed so far, highest first. */
export function claimedEpochs(dir: string): number[] {
  const out: number[] = []
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(CLAIM_PREFIX)) continue
    const epoch = Number(name.slice(CLAIM_PREFIX.length))
    if (Number.isInteger(epoch) && epoch > 0) out.push(epoch)
  }
  return out.sort((a, b) => b - a)
}

/** Whether epoch `epoch` was claimed; a claim that cannot be looked at counts as made. */
export function claimExists(dir: string, epoch: number): boolean {
  try {
    statSync(join(dir, `${CLAIM_PREFIX}${epoch}`))
    return true
  } catch (e) {
    return errnoCode(e) !== 'ENOENT'
  }
}

export function readClaim(dir: string, epoch: number): Claim | null {
  try {
    const parsed = ClaimSchema.safeParse(
      JSON.parse(readFileSync(join(dir, `${CLAIM_PREFIX}${epoch}`), 'utf8')),
    )
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Removes the claims of epochs below `below` (kept: the holder's own and the one before). */
export function pruneClaims(dir: string, below: number): void {
  for (const epoch of claimedEpochs(dir)) {
    if (epoch >= below) continue
    try {
      unlinkSync(join(dir, `${CLAIM_PREFIX}${epoch}`))
    } catch {
      // Gone already, or the disk refuses: a stale claim costs a directory entry, nothing else.
    }
  }
}

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return errnoCode(e) === 'EPERM'
  }
}

import type { Lease } from '../../../core/persistence/lease-file'

/**
 * Who runs a data folder's alerts, as one process lives it: a state, and the one function that
 * moves it on an event. The host (alert-host.ts) performs what entering a state means.
 *
 *                     looked: free, may own
 *          ┌─────────────────────────────────────────┐
 *          │                                         ▼
 *   ┌─────────────┐           claimLost       ┌────────────┐
 *   │   standby   │ ◀──────────────────────── │  claiming  │
 *   └─────────────┘                           └────────────┘
 *     ▲  ▲  ▲   │ unwritable                        │ claimed (epoch E)
 *     │  │  │   ▼                                   ▼
 *     │  │  │ ┌─────────────┐   unwritable    ┌────────────┐
 *     │  │  │ │  leaseless  │ ◀────────────── │   taking   │
 *     │  │  │ └─────────────┘ (claiming too)  └────────────┘
 *     │  │  └─ looked: held ─┘                      │ loaded
 *     │  └──────── loadFailed, lost ────────────────┤
 *     │                                             ▼
 *     │                                       ┌────────────┐
 *     └───── lost (a later epoch), ineligible │   owning   │
 *                                             └────────────┘
 *   leaseless ── looked: free ──▶ claiming          any ── close ──▶ closed
 *
 *   standby    another process holds a live lease, or this one may not run the alerts (demo
 *              beside real rules), or a take-over's load failed: nothing judged; the folder's
 *              fires shown from its files. Looks at the lease each second.
 *   claiming   the lease looked free: claiming the next epoch (one taker of many wins).
 *   taking     epoch E claimed and the lease written: the folder's files read afresh, after any
 *              write of this process's own has settled. No quote is judged meanwhile.
 *   owning     evaluates every rule of its service, journals, announces to every target;
 *              renews the lease each second; every write fenced by E.
 *   leaseless  the folder cannot hold a lease (read-only, full, no rights): this process runs
 *              the alerts on its own, unrecorded where the disk refuses, and says so. Looks again
 *              every few seconds.
 */

export type Ownership =
  | { kind: 'standby'; holder: Lease | null; why: StandbyWhy }
  | { kind: 'claiming' }
  | { kind: 'taking'; epoch: number }
  | { kind: 'owning'; epoch: number }
  | { kind: 'leaseless'; why: string }
  | { kind: 'closed' }

export type StandbyWhy =
  | { kind: 'starting' }
  /** Another process holds a live lease. */
  | { kind: 'held' }
  /** This process may not run the folder's alerts (its service has none of them). */
  | { kind: 'ineligible'; words: string }
  /** A take-over could not read the files; it tries again after a pause. */
  | { kind: 'loadFailed'; words: string }
  /** This process ran the alerts until another took them. */
  | { kind: 'lost'; words: string }

export type OwnershipEvent =
  /** A look at the lease (standby, leaseless): `free` for this process, and whether it may own. */
  | { kind: 'looked'; free: boolean; holder: Lease | null; mayOwn: true }
  | { kind: 'looked'; free: boolean; holder: Lease | null; mayOwn: false; why: string }
  | { kind: 'claimed'; epoch: number }
  | { kind: 'claimLost' }
  | { kind: 'loaded' }
  | { kind: 'loadFailed'; why: string }
  /** A fenced write or a renewal met a later epoch. */
  | { kind: 'lost'; why: string }
  /** While owning: the rules changed and this process may no longer run them. */
  | { kind: 'ineligible'; why: string }
  /** The lease could not be read, claimed or first written: the disk refuses. */
  | { kind: 'unwritable'; why: string }
  | { kind: 'close' }

export const STARTING: Ownership = { kind: 'standby', holder: null, why: { kind: 'starting' } }

/** The one transition function: the next state, or the same object when the event changes nothing. */
export function nextOwnership(state: Ownership, event: OwnershipEvent): Ownership {
  if (state.kind === 'closed') return state
  if (event.kind === 'close') return { kind: 'closed' }
  switch (state.kind) {
    case 'standby':
    case 'leaseless':
      return afterLook(state, event)
    case 'claiming':
      if (event.kind === 'claimed') return { kind: 'taking', epoch: event.epoch }
      if (event.kind === 'claimLost')
        return { kind: 'standby', holder: null, why: { kind: 'held' } }
      if (event.kind === 'unwritable') return { kind: 'leaseless', why: event.why }
      return state
    case 'taking':
      if (event.kind === 'loaded') return { kind: 'owning', epoch: state.epoch }
      if (event.kind === 'loadFailed')
        return standby(null, { kind: 'loadFailed', words: event.why })
      if (event.kind === 'lost') return standby(null, { kind: 'lost', words: event.why })
      if (event.kind === 'unwritable') return { kind: 'leaseless', why: event.why }
      return state
    case 'owning':
      if (event.kind === 'lost') return standby(null, { kind: 'lost', words: event.why })
      if (event.kind === 'ineligible')
        return standby(null, { kind: 'ineligible', words: event.why })
      return state
  }
}

function afterLook(
  state: Ownership & { kind: 'standby' | 'leaseless' },
  event: OwnershipEvent,
): Ownership {
  if (event.kind === 'unwritable') return { kind: 'leaseless', why: event.why }
  if (event.kind !== 'looked') return state
  // Ineligible: who holds the lease is said only while it is live (free: nobody runs them).
  if (!event.mayOwn)
    return standby(event.free ? null : event.holder, { kind: 'ineligible', words: event.why })
  if (event.free) return { kind: 'claiming' }
  return standby(event.holder, { kind: 'held' })
}

function standby(holder: Lease | null, why: StandbyWhy): Ownership {
  return { kind: 'standby', holder, why }
}

/** Whether this process runs the alerts (judges quotes, announces) in this state. */
export function runsAlerts(state: Ownership): boolean {
  return state.kind === 'owning' || state.kind === 'leaseless'
}

import { TickdeskError } from '../errors'

/**
 * What every write of the alerts' own files (rule states, history, fire journal) asks first: is
 * this process still the folder's alert owner? An owner holds the lease at an epoch
 * (alert-lease.ts); once a later epoch is claimed, check() throws LEASE_LOST and the write does
 * not happen. It is called synchronously right before the write's last step (the append, the
 * rename), with no await between: nothing can take the lease in between but a process stop in
 * that very instant.
 */
export interface Fence {
  /** Throws a TickdeskError with code LEASE_LOST when a later epoch holds the folder. */
  check(): void
}

export const LEASE_LOST = 'LEASE_LOST'

/** The folder could not hold a lease (read-only, full, no rights): alerts run here alone. */
export const NO_LEASE: Fence = { check: () => undefined }

export function leaseLost(message: string): TickdeskError {
  return new TickdeskError({ code: LEASE_LOST, message })
}

export function isLeaseLost(e: unknown): boolean {
  return e instanceof TickdeskError && e.code === LEASE_LOST
}

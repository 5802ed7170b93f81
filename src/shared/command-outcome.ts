/**
 * What a command returns across any transport: errors are values, since a thrown error loses its
 * code over IPC (electron#24427). The one check of its shape, for every side that receives one:
 * the sandboxed preload (which may take this file at run time: it imports nothing, so no zod
 * rides into the preload bundle), the renderer's Electron and web bridges, and the hosts.
 */
export interface ErrorPayload {
  code: string
  message: string
}

export type CommandOutcome<T> = { ok: true; result: T } | { ok: false; error: ErrorPayload }

/** Whether `value` is an outcome: `{ ok: true, result }` or `{ ok: false, error: { code, message } }`. */
export function isCommandOutcome(value: unknown): value is CommandOutcome<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false
  if (value.ok === true) return 'result' in value
  if (value.ok !== false || !('error' in value)) return false
  const error = value.error
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  )
}

/** A fresh plain outcome: only ok/result/error, whatever else the sender attached. */
export function plainOutcome(outcome: CommandOutcome<unknown>): CommandOutcome<unknown> {
  return outcome.ok
    ? { ok: true, result: outcome.result }
    : { ok: false, error: { code: outcome.error.code, message: outcome.error.message } }
}

import { ACCOUNT_WIDE_403 } from '../core/errors'
import { EXIT } from './io'

/** 3 for a rejected key, 4 for an account-wide 403, 1 for anything else. */
export function exitCodeFor(code: string | null): number {
  if (code === 'UNAUTHORIZED') return EXIT.unauthorized
  if (code !== null && ACCOUNT_WIDE_403.has(code)) return EXIT.forbidden
  return EXIT.failure
}

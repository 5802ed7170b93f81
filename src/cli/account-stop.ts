import { ACCOUNT_WIDE_403 } from '../core/errors'
import type { FeedStatus } from '../shared/status'
import { plainText } from '../shared/security/plain-text'
import { EXIT } from './io'

/**
 * A long-running command (watch, alerts run) stops, with its exit code and a message, when the
 * service refuses the key (401) or the account (account-wide 403): the engine already sends
 * nothing more, and a command that stayed up would only look alive.
 */
export function accountStop(
  command: string,
  s: FeedStatus,
): { exit: number; message: string } | null {
  if (s.state !== 'stopped' || s.code === null) return null
  if (s.code === 'UNAUTHORIZED')
    return {
      exit: EXIT.unauthorized,
      message: `tickdesk ${command}: the service rejected the API key (401). Check TICKDESK_API_KEY.\n`,
    }
  if (ACCOUNT_WIDE_403.has(s.code))
    return {
      exit: EXIT.forbidden,
      message: `tickdesk ${command}: the account cannot use the service (${plainText(s.code, 64)}): ${plainText(s.message)}\n`,
    }
  return null
}

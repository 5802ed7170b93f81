import { QUOTA_429, RATE_429 } from '../errors'

/**
 * "Invalid keys and over-limit keys are rejected with 401 or 429" (spec: Authentication 5): a
 * 401 whose body names a quota or rate code (DAILY_LIMIT_EXCEEDED, KEY_RATE_LIMIT_EXCEEDED, ...)
 * is an over-limit key, not a bad one. It is read as the 429 it stands for, so it pauses or
 * waits for the quota like one, instead of stopping everything until the key is changed. Any
 * other 401 stays a 401.
 */
export function overLimitStatus(status: number, code: string | null): number {
  if (status === 401 && code !== null && (QUOTA_429.has(code) || RATE_429.has(code))) return 429
  return status
}

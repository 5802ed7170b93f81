import { redact } from './log'

/** Error codes the interface defines (spec: Errors), plus ours. */
export const SERVICE_CODES = [
  'INVALID_REQUEST',
  'INVALID_SYMBOL',
  'UNKNOWN_SYMBOL',
  'NO_SUBSCRIPTION',
  'SUBSCRIPTION_EXPIRED',
  'MARKET_NOT_ENABLED',
  'API_KEY_SCOPE_DENIED',
  'IP_DENIED',
  'GEO_DENIED',
  'DAILY_LIMIT_EXCEEDED',
  'MONTHLY_LIMIT_EXCEEDED',
  'RATE_LIMIT_EXCEEDED',
  'KEY_RATE_LIMIT_EXCEEDED',
  'UPSTREAM_UNAVAILABLE',
  'RATE_LIMIT_UNAVAILABLE',
  'WS_CONN_LIMIT',
] as const

export const OUR_CODES = [
  'UNAUTHORIZED',
  'NETWORK',
  'TIMEOUT',
  'BAD_RESPONSE',
  'NOT_SUPPORTED',
  'STORAGE_CORRUPT',
  'DISK_FULL',
  'KEYCHAIN_UNAVAILABLE',
  'INVALID_INPUT',
  'NOT_FOUND',
] as const

export type ErrorCode = (typeof SERVICE_CODES)[number] | (typeof OUR_CODES)[number] | (string & {})

/** 403 codes that stop the whole account (spec: Authentication 7); market ones only block a market. */
export const ACCOUNT_WIDE_403 = new Set([
  'NO_SUBSCRIPTION',
  'SUBSCRIPTION_EXPIRED',
  'IP_DENIED',
  'GEO_DENIED',
])
export const MARKET_403 = new Set(['MARKET_NOT_ENABLED', 'API_KEY_SCOPE_DENIED'])
export const QUOTA_429 = new Set(['DAILY_LIMIT_EXCEEDED', 'MONTHLY_LIMIT_EXCEEDED'])
export const SYMBOL_400 = new Set(['INVALID_SYMBOL', 'UNKNOWN_SYMBOL'])
/** The per-minute 429s (spec: Errors): a pause, not a quota. */
export const RATE_429 = new Set(['RATE_LIMIT_EXCEEDED', 'KEY_RATE_LIMIT_EXCEEDED'])
/**
 * Codes about the key or the account, not about what was asked: a bad key, an account-wide 403, a
 * quota or the per-minute rate (spec: Errors). Asking for another market or symbol meets the same
 * refusal, so a check stops there and a stream error frame is the account's.
 */
const ACCOUNT_CODES: ReadonlySet<string> = new Set([
  'UNAUTHORIZED',
  ...ACCOUNT_WIDE_403,
  ...QUOTA_429,
  ...RATE_429,
])
export function isAccountCode(code: string): boolean {
  return ACCOUNT_CODES.has(code)
}
/** Failures of the way to the service or of its answer, not refusals: the next answer clears them. */
export const TRANSPORT_CODES: ReadonlySet<string> = new Set([
  'NETWORK',
  'TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'RATE_LIMIT_UNAVAILABLE',
  'BAD_RESPONSE',
])

/**
 * The HTTP status a service code comes with on REST (spec: Errors; 401's code is ours), so a
 * code met elsewhere (an error frame on the stream, which has no status) is read the same way.
 */
export function restStatusOf(code: string): number | null {
  if (code === 'UNAUTHORIZED') return 401
  if (ACCOUNT_WIDE_403.has(code) || MARKET_403.has(code)) return 403
  if (QUOTA_429.has(code) || RATE_429.has(code)) return 429
  return null
}

/**
 * What a 403 refused is asked again only after this long, on REST and on the stream alike: an
 * entitlement is fixed by a human in the console, so asking sooner only spends the budget.
 */
export const FORBIDDEN_RECHECK_MS = 15 * 60_000

/** A 403 that is not account-wide: it refuses what was asked (a market, an endpoint), not the key. */
export function refusesWhatWasAsked(e: { status: number | null; code: string }): boolean {
  return (e.status === 403 || MARKET_403.has(e.code)) && !ACCOUNT_WIDE_403.has(e.code)
}

export interface TickdeskErrorInit {
  code: ErrorCode
  message: string
  status?: number | null
  requestId?: string | null
  /** Milliseconds to wait before retrying, from Retry-After (seconds or HTTP date). */
  retryAfterMs?: number | null
  cause?: unknown
}

/** Errors are values with a code a user can act on. Messages are redacted. */
export class TickdeskError extends Error {
  readonly code: ErrorCode
  readonly status: number | null
  readonly requestId: string | null
  readonly retryAfterMs: number | null

  constructor(init: TickdeskErrorInit) {
    super(redact(init.message), init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'TickdeskError'
    this.code = init.code
    this.status = init.status ?? null
    this.requestId = init.requestId ?? null
    this.retryAfterMs = init.retryAfterMs ?? null
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      requestId: this.requestId,
      retryAfterMs: this.retryAfterMs,
    }
  }
}

export function isTickdeskError(e: unknown): e is TickdeskError {
  return e instanceof TickdeskError
}

import type { Clock } from '../util/clock'
import { retryAfterValue, type ServiceBehaviour } from './behaviour'
import type { FaultState, InjectedFailure } from './faults'
import type { KeyMeters } from './limits'
import { lookupKey, type KeyRecord, type Scope } from './plans-and-keys'

/**
 * The checks every metered request passes, in the order a real gateway would run them:
 * authentication (401), account entitlement (403), market scope (403), quota and RPM (429).
 * Used by REST calls and by stream handshakes alike (spec: Authentication, Limits).
 */

export interface Denial {
  status: number
  /** '' sends a bare non-JSON body (a proxy's page); null an envelope without a code. */
  code: string | null
  message: string
  /** Delta-seconds, or (injected faults only) any Retry-After text such as an HTTP date. */
  retryAfterSec?: number | string | undefined
}

/** A failure injected by FaultHooks.failNext, as a denial; no code means a bare body. */
export function injectedDenial(f: InjectedFailure | null): Denial {
  return {
    status: f?.status ?? 500,
    code: f?.code ?? '',
    message: 'injected fault',
    retryAfterSec: f?.retryAfterSec,
  }
}

export type Admission = { ok: true; record: KeyRecord } | { ok: false; denial: Denial }

/** 403 MARKET_NOT_ENABLED (or API_KEY_SCOPE_DENIED) when the key lacks the scope (spec: Authentication 8). */
export function scopeDenial(record: KeyRecord, scope: Scope): Denial | null {
  if (record.scopes.has(scope)) return null
  return {
    status: 403,
    code: record.scopeCode,
    message: `market scope '${scope}' is not enabled for this key`,
  }
}

export class Gate {
  constructor(
    private readonly meters: KeyMeters,
    private readonly faults: FaultState,
    private readonly clock: Clock,
    private readonly behaviour: ServiceBehaviour,
  ) {}

  /** scope null: checked later (stream subscriptions name their market after the handshake). */
  admit(key: string | null, scope: Scope | null): Admission {
    const record = lookupKey(key)
    if (!record || this.faults.revoked.has(record.key)) {
      // The spec does not show the 401 code; UNAUTHORIZED is ours (src/core/errors.ts).
      const message = key === null ? 'missing API key' : 'invalid API key'
      return { ok: false, denial: { status: 401, code: 'UNAUTHORIZED', message } }
    }
    if (record.accountDenial !== null) {
      const code = record.accountDenial
      const message = code.toLowerCase().replace(/_/g, ' ')
      return { ok: false, denial: { status: 403, code, message } }
    }
    if (scope !== null) {
      const denied = scopeDenial(record, scope)
      // The envelope's code is optional (spec: Errors): some services send the 403 without one.
      if (denied && this.behaviour.forbiddenWithoutCode)
        return { ok: false, denial: { ...denied, code: null } }
      if (denied) return { ok: false, denial: denied }
    }
    const now = this.clock.now()
    const limited = this.meters.admit(record, now)
    if (limited) {
      // The quota's reset time is "not shown" (spec: Limits); some services do not say it.
      const silent = limited.code === 'DAILY_LIMIT_EXCEEDED' && !this.behaviour.quotaRetryAfter
      const b = this.behaviour
      return {
        ok: false,
        denial: {
          // "over-limit keys are rejected with 401 or 429" (spec: Authentication 5).
          status: b.overLimitStatus,
          code: limited.code,
          message: limited.message,
          retryAfterSec: silent ? undefined : retryAfterValue(b, limited.retryAfterSec, now),
        },
      }
    }
    return { ok: true, record }
  }
}

import type { IncomingHttpHeaders } from 'node:http'
import { PLAN_LIMITS, type Plan } from '../shared/market'

/**
 * The simulator's account book: one fixed demo key per plan plus keys that exercise the
 * entitlement and quota errors of the spec (Authentication 7, Errors, Limits).
 * Keys are fixed strings so demo mode, tests and the CLI agree without coordination.
 */

/** Entitlements the sim gates on; the spec names crypto and futures scope, multi and agri are ours. */
export type Scope = 'crypto' | 'futures' | 'multi' | 'agri'
export const ALL_SCOPES: readonly Scope[] = ['crypto', 'futures', 'multi', 'agri']

export interface DemoKeys {
  free: string
  growth: string
  pro: string
  enterprise: string
  expired: string
  cryptoOnly: string
  quotaLimited: string
}

export const DEMO_KEYS: DemoKeys = {
  free: 'demo-free-0001-5c1e8a7d',
  growth: 'demo-growth-0001-9b2f4e6a',
  pro: 'demo-pro-0001-3d7c1f9e',
  enterprise: 'demo-enterprise-0001-8a4b2c6d',
  expired: 'demo-expired-0001-1f6e3a9b',
  cryptoOnly: 'demo-cryptoonly-0001-7c2d5e8f',
  quotaLimited: 'demo-quota-0001-4e9a1b3c',
}

export interface KeyRecord {
  key: string
  name: keyof DemoKeys
  plan: Plan
  scopes: ReadonlySet<Scope>
  /** 403 SUBSCRIPTION_EXPIRED on everything. */
  expired: boolean
  /** Requests per UTC day; null = unmetered (the spec does not show daily quota amounts). */
  dailyQuota: number | null
}

/** Daily quota of the quotaLimited key: small enough for a test to exhaust quickly. */
export const QUOTA_LIMITED_DAILY = 20

function record(
  name: keyof DemoKeys,
  plan: Plan,
  extra: Partial<Pick<KeyRecord, 'scopes' | 'expired' | 'dailyQuota'>> = {},
): KeyRecord {
  return {
    key: DEMO_KEYS[name],
    name,
    plan,
    scopes: extra.scopes ?? new Set(ALL_SCOPES),
    expired: extra.expired ?? false,
    dailyQuota: extra.dailyQuota ?? null,
  }
}

const RECORDS: readonly KeyRecord[] = [
  record('free', 'free'),
  record('growth', 'growth'),
  record('pro', 'pro'),
  record('enterprise', 'enterprise'),
  record('expired', 'pro', { expired: true }),
  record('cryptoOnly', 'pro', { scopes: new Set<Scope>(['crypto']) }),
  record('quotaLimited', 'free', { dailyQuota: QUOTA_LIMITED_DAILY }),
]

const BY_KEY = new Map(RECORDS.map((r) => [r.key, r]))

export function lookupKey(key: string | null): KeyRecord | null {
  if (key === null) return null
  return BY_KEY.get(key) ?? null
}

export type RpmOverride = Partial<Record<Plan, number>>

export function rpmFor(plan: Plan, override: RpmOverride | undefined): number {
  return override?.[plan] ?? PLAN_LIMITS[plan].rpm
}

/**
 * The key from X-API-Key, else `Authorization: Bearer`, else (stream upgrades only) `?apiKey=`
 * (spec: Authentication 2; the query form exists because browsers cannot set upgrade headers).
 */
export function apiKeyFrom(headers: IncomingHttpHeaders, url: URL | null): string | null {
  const header = headers['x-api-key']
  const direct = Array.isArray(header) ? header[0] : header
  if (direct && direct.trim() !== '') return direct.trim()
  const auth = headers.authorization
  const bearer = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null
  if (bearer?.[1]) return bearer[1]
  const query = url?.searchParams.get('apiKey')
  return query && query !== '' ? query : null
}

import type { IncomingHttpHeaders } from 'node:http'
import { SIM_PLANS, type SimPlan } from './plans'

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
  noSubscription: string
  ipDenied: string
  geoDenied: string
  /** Crypto only, refused elsewhere with API_KEY_SCOPE_DENIED (the key's scope, not the plan). */
  scopeDenied: string
}

export const DEMO_KEYS: DemoKeys = {
  free: 'demo-free-0001-5c1e8a7d',
  growth: 'demo-growth-0001-9b2f4e6a',
  pro: 'demo-pro-0001-3d7c1f9e',
  enterprise: 'demo-enterprise-0001-8a4b2c6d',
  expired: 'demo-expired-0001-1f6e3a9b',
  cryptoOnly: 'demo-cryptoonly-0001-7c2d5e8f',
  quotaLimited: 'demo-quota-0001-4e9a1b3c',
  noSubscription: 'demo-nosub-0001-2a8c6e1d',
  ipDenied: 'demo-ipdenied-0001-6b3f9d2e',
  geoDenied: 'demo-geodenied-0001-9e1c4a7b',
  scopeDenied: 'demo-scopedenied-0001-5d2b8f3a',
}

/** Account-wide 403s (spec: Authentication 7): every request and handshake is refused. */
export type AccountDenial = 'SUBSCRIPTION_EXPIRED' | 'NO_SUBSCRIPTION' | 'IP_DENIED' | 'GEO_DENIED'

export interface KeyRecord {
  key: string
  name: keyof DemoKeys
  plan: SimPlan
  scopes: ReadonlySet<Scope>
  /** A 403 with this code on everything; null for a working account. */
  accountDenial: AccountDenial | null
  /** The 403 code for a market outside `scopes`: the plan's (MARKET_NOT_ENABLED) or the key's. */
  scopeCode: 'MARKET_NOT_ENABLED' | 'API_KEY_SCOPE_DENIED'
  /** Requests per UTC day; null = unmetered (the spec does not show daily quota amounts). */
  dailyQuota: number | null
}

/** Daily quota of the quotaLimited key: small enough for a test to exhaust quickly. */
export const QUOTA_LIMITED_DAILY = 20

function record(
  name: keyof DemoKeys,
  plan: SimPlan,
  extra: Partial<Pick<KeyRecord, 'scopes' | 'accountDenial' | 'scopeCode' | 'dailyQuota'>> = {},
): KeyRecord {
  return {
    key: DEMO_KEYS[name],
    name,
    plan,
    scopes: extra.scopes ?? new Set(ALL_SCOPES),
    accountDenial: extra.accountDenial ?? null,
    scopeCode: extra.scopeCode ?? 'MARKET_NOT_ENABLED',
    dailyQuota: extra.dailyQuota ?? null,
  }
}

const RECORDS: readonly KeyRecord[] = [
  record('free', 'free'),
  record('growth', 'growth'),
  record('pro', 'pro'),
  record('enterprise', 'enterprise'),
  record('expired', 'pro', { accountDenial: 'SUBSCRIPTION_EXPIRED' }),
  record('noSubscription', 'free', { accountDenial: 'NO_SUBSCRIPTION' }),
  record('ipDenied', 'pro', { accountDenial: 'IP_DENIED' }),
  record('geoDenied', 'pro', { accountDenial: 'GEO_DENIED' }),
  record('scopeDenied', 'pro', {
    scopes: new Set<Scope>(['crypto']),
    scopeCode: 'API_KEY_SCOPE_DENIED',
  }),
  record('cryptoOnly', 'pro', { scopes: new Set<Scope>(['crypto']) }),
  record('quotaLimited', 'free', { dailyQuota: QUOTA_LIMITED_DAILY }),
]

const BY_KEY = new Map(RECORDS.map((r) => [r.key, r]))

export function lookupKey(key: string | null): KeyRecord | null {
  if (key === null) return null
  return BY_KEY.get(key) ?? null
}

export type RpmOverride = Partial<Record<SimPlan, number>>

export function rpmFor(plan: SimPlan, override: RpmOverride | undefined): number {
  return override?.[plan] ?? SIM_PLANS[plan].rpm
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

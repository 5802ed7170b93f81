import { z } from 'zod'

/**
 * The service an alert rule was made for, and the one a process runs on: a rule is judged and
 * delivered only by a process on its own service, so a rule made against the trader's real
 * account never meets the demo simulator's prices (nor another account's, under another profile).
 *
 *   url      the service root as the trader configured it, normalised (scheme, host, path; no
 *            trailing slash; host lower-cased); null is demo mode's embedded simulator
 *   profile  the keychain account the key is kept under (TICKDESK_PROFILE, default "default")
 */
export const ServiceRefSchema = z.object({
  url: z.string().max(2000).nullable(),
  profile: z.string().max(100),
})
export type ServiceRef = z.infer<typeof ServiceRefSchema>

export const DEFAULT_PROFILE = 'default'

/** The service at `baseUrl` (demo when none), for `profile`. */
export function serviceRef(baseUrl: string | null | undefined, profile: string): ServiceRef {
  return { url: normalServiceUrl(baseUrl), profile: profile.trim() || DEFAULT_PROFILE }
}

export function normalServiceUrl(baseUrl: string | null | undefined): string | null {
  const raw = baseUrl?.trim() ?? ''
  if (raw === '') return null
  try {
    const u = new URL(raw)
    return `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}`
  } catch {
    return raw.replace(/\/+$/, '')
  }
}

export function sameService(a: ServiceRef, b: ServiceRef): boolean {
  return a.url === b.url && a.profile === b.profile
}

export function isDemo(s: ServiceRef): boolean {
  return s.url === null
}

/** "demo prices", "api.example.com", "api.example.com (profile work)". */
export function serviceWords(s: ServiceRef): string {
  if (s.url === null) return 'the demo simulator'
  let host = s.url
  try {
    const u = new URL(s.url)
    host = `${u.host}${u.pathname.replace(/\/+$/, '')}`
  } catch {
    // Shown as written.
  }
  return s.profile === DEFAULT_PROFILE ? host : `${host} (profile ${s.profile})`
}

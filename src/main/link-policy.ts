/**
 * What the page may reach beyond itself, as plain rules (no electron at run time, so the security
 * scan and tests call them as they are): the permissions it may have, and the links handed to the
 * OS browser. security.ts applies them to the session and the window's contents.
 */

/** Permissions the page may have: alerts can raise web notifications; nothing else (camera, geolocation…). */
const ALLOWED_PERMISSIONS = new Set(['notifications'])

export function isPermissionAllowed(permission: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission)
}

/**
 * An external link we agree to hand to the OS: https only, no user:password@ (phishing and
 * credential leaks), at most 2 KB. Returns the normalised URL or null.
 */
export function externalLink(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 2048) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  // An https URL always names a host (the URL parser refuses one without): no check for it.
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null
  return url.href
}

/**
 * How the API key travels (spec: Authentication 2, "The key is sent in request header X-API-Key.
 * Header Authorization with the Bearer scheme is also accepted"). X-API-Key by default; Bearer
 * for a gateway or proxy that passes only Authorization (Settings, --auth, TICKDESK_AUTH).
 */
export type AuthScheme = 'x-api-key' | 'bearer'

export function authHeader(key: string, scheme: AuthScheme = 'x-api-key'): Record<string, string> {
  return scheme === 'bearer' ? { Authorization: `Bearer ${key}` } : { 'X-API-Key': key }
}

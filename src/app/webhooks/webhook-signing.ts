import { createHmac, randomBytes } from 'node:crypto'

/**
 * Optional HMAC-SHA256 signing of webhook deliveries, so a receiver can refuse a request that did
 * not come from this desk (SECURITY.md shows a receiver's check). The signed text is `<timestamp>.<body>`, so a receiver that checks the
 * timestamp's age also refuses a delivery replayed later; the secret is per webhook and lives in
 * the OS keychain (webhook-secrets.ts), never in webhooks.json.
 *
 *   X-Tickdesk-Timestamp: 1767225600     (Unix seconds)
 *   X-Tickdesk-Signature: sha256=<hex HMAC-SHA256(secret, "1767225600." + body)>
 */
export const SIGNATURE_HEADER = 'x-tickdesk-signature'
export const TIMESTAMP_HEADER = 'x-tickdesk-timestamp'

export function signatureHeaders(
  secret: string,
  body: string,
  nowMs: number,
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000))
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `sha256=${mac}` }
}

/** A new signing secret: 32 random bytes, hex, with a prefix that says what it is. */
export function newSigningSecret(): string {
  return `tdwh_${randomBytes(32).toString('hex')}`
}

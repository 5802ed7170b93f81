import { httpSend, type HttpReply } from '../../core/rest/http-exchange'

/** Of a receiver's answer, this much is kept (for `webhook test`); the rest is read and dropped. */
export const WEBHOOK_REPLY_KEEP_BYTES = 4096

/** A fire as one webhook request: where it goes, its headers and its body (webhook-formats.ts). */
export interface WebhookRequest {
  url: URL
  headers: Record<string, string>
  body: string
}

/**
 * One POST of a fire's request: its Idempotency-Key is the fire id (a receiver drops a repeat),
 * the signature headers when signed, and the reply kept to WEBHOOK_REPLY_KEEP_BYTES. Deliveries
 * (webhook-sender.ts) and `alerts webhook test` (webhook-test.ts) send through here alike.
 */
export function postWebhook(
  request: WebhookRequest,
  fireId: string,
  signature: Record<string, string>,
  signal: AbortSignal,
): Promise<HttpReply> {
  const headers = {
    ...request.headers,
    'idempotency-key': fireId,
    'user-agent': 'Tickdesk alerts',
    ...signature,
  }
  return httpSend('POST', request.url, headers, request.body, signal, WEBHOOK_REPLY_KEEP_BYTES)
}

import { httpSend, type HttpReply } from './http-exchange'

export { MAX_BODY_BYTES, type HttpReply } from './http-exchange'

/** One GET, read whole as text: the engine's only HTTP call (rest-client.ts). */
export function httpGet(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<HttpReply> {
  return httpSend('GET', url, headers, null, signal)
}

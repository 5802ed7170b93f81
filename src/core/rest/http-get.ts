import { httpSend, StaleConnectionError, type HttpReply } from './http-exchange'

export { MAX_BODY_BYTES, type HttpReply } from './http-exchange'

/**
 * At most this many kept-alive connections are found dead in a row before the error is the
 * caller's (each such send destroys one; the pool rarely holds more than a few).
 */
const STALE_SENDS = 8

/**
 * One GET, read whole as text: the engine's only HTTP call (rest-client.ts). A GET sent on a
 * kept-alive connection that died while idle goes again at once: after a sleep every idle
 * connection is dead, and waiting out a REST retry for that delayed the first price after
 * waking by about a second. The dead send never reached the service, so it costs no quota.
 */
export async function httpGet(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<HttpReply> {
  for (let stale = 0; ; stale++) {
    try {
      return await httpSend('GET', url, headers, null, signal)
    } catch (error) {
      if (!(error instanceof StaleConnectionError) || signal.aborted || stale >= STALE_SENDS)
        throw error
    }
  }
}

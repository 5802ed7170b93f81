import { randomUUID } from 'node:crypto'
import { authHeader, type AuthScheme } from './auth-header'
import { systemClock, type Clock } from '../clock'
import { TickdeskError } from '../errors'
import { httpGet, type HttpReply } from './http-get'
import { registerSecret, silentLogger, type Logger } from '../log'
import { plainText } from '../../shared/security/plain-text'
import type { RateGovernor } from './rate-governor'
import { overLimitStatus } from './over-limit'
import { retryAfterFor } from './retry-after'

/**
 * One metered GET against the service (spec: Response envelope, Authentication, Errors).
 *
 * Every call first takes a slot from the RateGovernor, sends X-API-Key and a fresh X-Request-Id,
 * times out on the injected clock, parses the envelope {succ, data, msg, code} and reports the
 * outcome back to the governor so policy (pauses, backoff, stops) lives in one place.
 * Errors are TickdeskError values: the service's code when it sent one; UNAUTHORIZED for a 401
 * (the spec does not show the 401 code), unless its body names a quota or rate code (over-limit.ts);
 * NETWORK for transport failures; TIMEOUT; BAD_RESPONSE for non-JSON or a body that is not the
 * envelope. Retry-After is read in any form and capped (retry-after.ts). The key is registered with redact() so it never
 * appears in a log line or an error message.
 *
 * An outcome belongs to the key its request was sent with: a reply that lands after setApiKey()
 * is not reported to the governor and fails as ABORTED (which the poller and the governor pass
 * over), so an old key's late 401 cannot stop the new key's feed.
 */
export interface RestClientOptions {
  baseUrl: string
  apiKey: string
  /** How the key is sent (auth-header.ts); default X-API-Key. */
  auth?: AuthScheme
  governor: RateGovernor
  clock?: Clock
  timeoutMs?: number
  logger?: Logger
}

export interface RestResult {
  data: unknown
  requestId: string | null
}

const DEFAULT_TIMEOUT_MS = 10_000

export class RestClient {
  private readonly baseUrl: string
  private readonly governor: RateGovernor
  private readonly clock: Clock
  private readonly timeoutMs: number
  private readonly logger: Logger
  private apiKey: string
  private readonly auth: AuthScheme
  /** Bumped by setApiKey(): a request sent under an older one answers for a key no longer used. */
  private keyEpoch = 0

  constructor(opts: RestClientOptions) {
    this.auth = opts.auth ?? 'x-api-key'
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '')
    this.governor = opts.governor
    this.clock = opts.clock ?? systemClock
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.logger = opts.logger ?? silentLogger
    this.apiKey = opts.apiKey
    registerSecret(opts.apiKey)
  }

  /** New key: registered for redaction, and the governor leaves any auth stop. */
  setApiKey(key: string): void {
    registerSecret(key)
    this.apiKey = key
    this.keyEpoch += 1
    this.governor.resetAuth()
  }

  /**
   * One metered GET through the governor; returns envelope data; throws TickdeskError. `kind`
   * 'poll' is background work that yields the budget to waiting foreground calls (rate-governor).
   */
  async get(
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
    kind: 'rest' | 'poll' = 'rest',
  ): Promise<RestResult> {
    await this.governor.acquire(kind, signal)
    const epoch = this.keyEpoch
    try {
      const result = await this.send(path, query, signal)
      if (epoch === this.keyEpoch) this.governor.report({ ok: true })
      return result
    } catch (error) {
      const e = error instanceof TickdeskError ? error : wrapUnknown(error)
      if (epoch !== this.keyEpoch) throw this.sentWithOldKey(path, e)
      if (e.code !== 'ABORTED') this.governor.report({ ok: false, error: e })
      throw e
    }
  }

  /** A failure that speaks for a replaced key: dropped, said as such (the caller may retry). */
  private sentWithOldKey(path: string, e: TickdeskError): TickdeskError {
    this.logger.log('debug', 'reply for a replaced API key dropped', { path, code: e.code })
    return new TickdeskError({
      code: 'ABORTED',
      message: `GET ${path} was sent with the previous API key; try again.`,
      cause: e,
    })
  }

  private async send(
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<RestResult> {
    const url = new URL(this.baseUrl + path)
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
    const sentId = randomUUID()
    const controller = new AbortController()
    let timedOut = false
    const timer = this.clock.setTimeout(() => {
      timedOut = true
      controller.abort()
    }, this.timeoutMs)
    const onAbort = (): void => controller.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    const started = this.clock.now()
    const where = `GET ${path}`
    try {
      let res: HttpReply
      try {
        res = await httpGet(
          url,
          {
            ...authHeader(this.apiKey, this.auth),
            'X-Request-Id': sentId,
            Accept: 'application/json',
          },
          controller.signal,
        )
      } catch (cause) {
        if (timedOut) {
          throw new TickdeskError({
            code: 'TIMEOUT',
            message: `${where} timed out after ${this.timeoutMs} ms`,
            cause,
          })
        }
        if (signal?.aborted)
          throw new TickdeskError({ code: 'ABORTED', message: `${where} aborted`, cause })
        const reason =
          cause instanceof Error ? (causeMessage(cause) ?? cause.message) : String(cause)
        throw new TickdeskError({ code: 'NETWORK', message: `${where} failed: ${reason}`, cause })
      }
      const requestId = res.header('x-request-id')
      this.logger.log('debug', where, {
        status: res.status,
        requestId,
        ms: this.clock.now() - started,
      })
      return this.interpret(res, requestId, where)
    } finally {
      this.clock.clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
  }

  private interpret(res: HttpReply, requestId: string | null, where: string): RestResult {
    try {
      return readReply(res, requestId, where, this.clock.now())
    } catch (error) {
      const e = error as TickdeskError
      this.logger.log('warn', 'service error', {
        path: where,
        status: e.status,
        code: e.code,
        requestId,
      })
      throw error
    }
  }
}

/**
 * A reply read as the service's envelope: its data, or a TickdeskError with the service's code
 * (or one from the status class), message, request id and Retry-After. Exported for the fuzz test.
 */
export function readReply(
  res: HttpReply,
  requestId: string | null,
  where: string,
  now: number,
): RestResult {
  const envelope = parseEnvelope(res.text)
  if (res.ok && envelope?.succ === true) return { data: envelope.data, requestId }
  const serviceCode = envelope?.code ?? null
  const status = overLimitStatus(res.status, serviceCode)
  const code =
    status === 401 ? 'UNAUTHORIZED' : (serviceCode ?? fallbackCode(status, envelope !== null))
  const msg =
    envelope?.msg ?? (envelope ? 'request failed' : 'response is not the service envelope')
  throw new TickdeskError({
    code,
    status,
    requestId,
    retryAfterMs: retryAfterFor(res.header('retry-after'), code, now),
    message: `${where}: ${res.status} ${code}: ${msg}`,
  })
}

interface Envelope {
  succ: boolean
  data: unknown
  msg: string | null
  code: string | null
}

/** The envelope (spec: Response envelope); null when the body is not JSON or lacks a boolean succ. */
function parseEnvelope(text: string): Envelope | null {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null
  const r = body as Record<string, unknown>
  if (typeof r.succ !== 'boolean') return null
  return {
    succ: r.succ,
    data: r.data,
    // The service's words, stripped of control characters: they reach logs, pages and terminals.
    msg: typeof r.msg === 'string' && plainText(r.msg) !== '' ? plainText(r.msg) : null,
    code: typeof r.code === 'string' && /^[A-Z0-9_]{1,64}$/.test(r.code) ? r.code : null,
  }
}

/**
 * Status-class codes when the body names none (a proxy's HTML 502, a bare 429 …). A 403 is a
 * refusal whatever its body: FORBIDDEN, not a transport failure to retry at once.
 */
function fallbackCode(status: number, wasEnvelope: boolean): string {
  if (status === 403) return 'FORBIDDEN'
  if (status === 429) return 'RATE_LIMIT_EXCEEDED'
  if (status >= 500) return 'UPSTREAM_UNAVAILABLE'
  if (status >= 200 && status < 300) return 'BAD_RESPONSE'
  if (status === 400 && wasEnvelope) return 'INVALID_REQUEST'
  return wasEnvelope ? `HTTP_${status}` : 'BAD_RESPONSE'
}

function causeMessage(error: Error): string | undefined {
  const cause = (error as { cause?: unknown }).cause
  if (cause instanceof Error) return cause.message
  return undefined
}

function wrapUnknown(error: unknown): TickdeskError {
  return new TickdeskError({
    code: 'NETWORK',
    message: error instanceof Error ? error.message : String(error),
    cause: error,
  })
}

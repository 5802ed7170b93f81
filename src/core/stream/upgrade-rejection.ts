import type { IncomingMessage } from 'node:http'
import { plainText } from '../../shared/security/plain-text'
import { TickdeskError } from '../errors'
import { overLimitStatus } from '../rest/over-limit'
import { retryAfterFor } from '../rest/retry-after'

const MAX_BODY = 8_192

/**
 * Reads a non-101 answer to the stream upgrade into a TickdeskError: the envelope's code and msg
 * when the body is one (spec: Errors, "Failure body: envelope with succ=false, msg and code"),
 * Retry-After on 429, in any form and capped (retry-after.ts). A 401 is UNAUTHORIZED (spec:
 * Authentication, "The error code returned with status 401: not shown") unless its body names a
 * quota or rate code, which makes it the 429 it stands for (over-limit.ts). Never rejects: a
 * broken body still yields an error built from the status.
 */
export function readUpgradeRejection(
  res: IncomingMessage,
  now: () => number,
): Promise<TickdeskError> {
  return new Promise((resolve) => {
    let body = ''
    let done = false
    const finish = (): void => {
      if (done) return
      done = true
      resolve(
        rejectionError(res.statusCode ?? 0, headerValue(res.headers['retry-after']), body, now()),
      )
    }
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      if (body.length < MAX_BODY) body += chunk
    })
    res.on('end', finish)
    res.on('error', finish)
    res.on('close', finish)
  })
}

export function rejectionError(
  httpStatus: number,
  retryAfter: string | null,
  body: string,
  now: number,
): TickdeskError {
  let code: string | null = null
  let message = `stream upgrade rejected with HTTP ${httpStatus}`
  try {
    const env: unknown = JSON.parse(body)
    if (env !== null && typeof env === 'object') {
      const e = env as Record<string, unknown>
      // Plain text only: the service's words reach logs, pages and terminals (plain-text.ts).
      if (typeof e.code === 'string' && plainText(e.code, 64) !== '') code = plainText(e.code, 64)
      if (typeof e.msg === 'string' && plainText(e.msg) !== '') message = plainText(e.msg)
    }
  } catch {
    // not an envelope (a proxy page, nothing): the status alone decides
  }
  const status = overLimitStatus(httpStatus, code)
  const fallback =
    status === 403
      ? 'FORBIDDEN'
      : status === 429
        ? 'RATE_LIMIT_EXCEEDED'
        : status >= 500
          ? 'UPSTREAM_UNAVAILABLE'
          : 'BAD_RESPONSE'
  const final = status === 401 ? 'UNAUTHORIZED' : (code ?? fallback)
  return new TickdeskError({
    code: final,
    message,
    status,
    retryAfterMs: status === 429 ? retryAfterFor(retryAfter, final, now) : null,
  })
}

function headerValue(v: string | string[] | undefined): string | null {
  return typeof v === 'string' ? v : (v?.[0] ?? null)
}

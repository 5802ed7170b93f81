import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Denial } from './gate'

/**
 * The response envelope {succ, data, msg, code} and the X-Request-Id header on every response
 * (spec: Response envelope). A denial with an empty code is sent bare (text/html), the way a
 * proxy in front of the service answers a 502.
 */

/** Echo the client's X-Request-Id so its logs and ours line up; otherwise mint one. */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id']
  const id = Array.isArray(sent) ? sent[0] : sent
  return id && /^[\w.:-]{1,128}$/.test(id) ? id : `sim-${randomUUID()}`
}

export function sendData(res: ServerResponse, requestId: string, data: unknown): void {
  send(res, 200, requestId, { succ: true, data }, undefined)
}

export function sendDenial(res: ServerResponse, requestId: string, d: Denial): void {
  if (d.code === '') {
    const body = `<html><body><h1>${d.status} ${STATUS_CODES[d.status] ?? ''}</h1></body></html>`
    res.writeHead(d.status, headers(requestId, 'text/html', body, d.retryAfterSec))
    res.end(body)
    return
  }
  send(res, d.status, requestId, failureBody(d), d.retryAfterSec)
}

/** The failure envelope; `code` is left out when the denial has none (spec: Response envelope). */
function failureBody(d: Denial): Record<string, unknown> {
  const body: Record<string, unknown> = { succ: false, data: null, msg: d.message }
  if (d.code !== null) body.code = d.code
  return body
}

function send(
  res: ServerResponse,
  status: number,
  requestId: string,
  body: unknown,
  retryAfter: number | string | undefined,
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, headers(requestId, 'application/json; charset=utf-8', text, retryAfter))
  res.end(text)
}

function headers(
  requestId: string,
  type: string,
  body: string,
  retryAfter: number | string | undefined,
): Record<string, string> {
  const h: Record<string, string> = {
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': requestId,
  }
  if (retryAfter !== undefined) h['Retry-After'] = String(retryAfter)
  return h
}

/** Refuses a stream upgrade with a real HTTP status, so clients see 401/403/429 on the handshake. */
export function rejectUpgrade(socket: Duplex, d: Denial, requestId: string): void {
  const body = d.code === '' ? '' : JSON.stringify(failureBody(d))
  const lines = [
    `HTTP/1.1 ${d.status} ${STATUS_CODES[d.status] ?? 'Error'}`,
    ...Object.entries(
      headers(requestId, 'application/json; charset=utf-8', body, d.retryAfterSec),
    ).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
    '',
    body,
  ]
  socket.once('finish', () => socket.destroy())
  socket.end(lines.join('\r\n'))
}

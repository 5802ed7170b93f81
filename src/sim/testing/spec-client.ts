import { WebSocket } from 'ws'

/**
 * Small real clients for the simulator's own specs (and anyone else's): fetch with a key, and a
 * `ws` socket that queues parsed frames so a test can await "the next frame that matches".
 */

export interface Reply {
  status: number
  headers: Headers
  body: unknown
  text: string
}

export async function getJson(
  base: string,
  path: string,
  key: string | null,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const h: Record<string, string> = { ...headers }
  if (key !== null) h['X-API-Key'] = key
  const res = await fetch(`${base}${path}`, { headers: h })
  const text = await res.text()
  let body: unknown = null
  try {
    body = JSON.parse(text)
  } catch {
    body = null
  }
  return { status: res.status, headers: res.headers, body, text }
}

export type Frame = Record<string, unknown>

export class FrameQueue {
  readonly raw: string[] = []
  private frames: Frame[] = []
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = []

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString()
      this.raw.push(text)
      let f: unknown
      try {
        f = JSON.parse(text)
      } catch {
        return
      }
      if (typeof f !== 'object' || f === null) return
      const frame = f as Frame
      const w = this.waiters.find((x) => x.match(frame))
      if (w) {
        this.waiters = this.waiters.filter((x) => x !== w)
        w.resolve(frame)
      } else this.frames.push(frame)
    })
  }

  /** The first queued or future frame matching; rejects after timeoutMs. */
  next(match: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
    const i = this.frames.findIndex(match)
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0] as Frame)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching frame')), timeoutMs)
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer)
          resolve(f)
        },
      })
    })
  }

  send(obj: unknown): void {
    this.ws.send(JSON.stringify(obj))
  }
}

export type Opened =
  | { ok: true; q: FrameQueue }
  | {
      ok: false
      status: number
      headers: Record<string, string | string[] | undefined>
      body: string
    }

/** Opens a socket; resolves with the HTTP status when the upgrade is refused. */
export function openStream(
  url: string,
  key: string | null,
  via: 'header' | 'query' | 'bearer' = 'header',
): Promise<Opened> {
  const target = via === 'query' && key !== null ? `${url}?apiKey=${encodeURIComponent(key)}` : url
  const headers: Record<string, string> = {}
  if (key !== null && via === 'header') headers['X-API-Key'] = key
  if (key !== null && via === 'bearer') headers.Authorization = `Bearer ${key}`
  const ws = new WebSocket(target, { headers })
  const q = new FrameQueue(ws)
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ok: true, q }))
    ws.once('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () =>
        resolve({ ok: false, status: res.statusCode ?? 0, headers: res.headers, body }),
      )
      res.on('error', () =>
        resolve({ ok: false, status: res.statusCode ?? 0, headers: res.headers, body }),
      )
    })
    ws.once('error', reject)
  })
}

export async function mustOpen(url: string, key: string): Promise<FrameQueue> {
  const o = await openStream(url, key)
  if (!o.ok) throw new Error(`upgrade refused with ${o.status}`)
  return o.q
}

export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve({ code: 1006, reason: '' })
  return new Promise((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  )
}

/**
 * Spends a quota-limited key's `daily` requests on `path` (each must be answered) and returns the
 * next answer: the refusal the specs then read.
 */
export async function spendDailyQuota(
  url: string,
  path: string,
  key: string,
  daily: number,
): Promise<Reply> {
  for (let i = 0; i < daily; i++) {
    const r = await getJson(url, path, key)
    if (r.status !== 200) throw new Error(`request ${i + 1} of ${daily} answered ${r.status}`)
  }
  return getJson(url, path, key)
}

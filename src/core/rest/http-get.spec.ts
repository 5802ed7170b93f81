import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpGet, MAX_BODY_BYTES } from './http-get'

// A real server on loopback: what the engine's GET must make of each kind of reply.
let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') {
      res.setHeader('x-request-id', 'abc')
      res.setHeader('set-cookie', ['a=1', 'b=2'])
      res.end(JSON.stringify({ got: req.headers['x-api-key'] }))
    } else if (req.url === '/teapot') {
      res.statusCode = 418
      res.end('no')
    } else if (req.url === '/huge') {
      const chunk = Buffer.alloc(1024 * 1024, 32)
      let sent = 0
      const more = (): void => {
        while (sent <= MAX_BODY_BYTES && res.write(chunk)) sent += chunk.length
        if (sent > MAX_BODY_BYTES) res.end()
        else res.once('drain', more)
      }
      more()
    } else if (req.url === '/cut') {
      res.writeHead(200, { 'content-length': '100' })
      res.write('partial')
      setTimeout(() => res.destroy(), 20)
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 5000)
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const never = new AbortController().signal

describe('httpGet', () => {
  it('sends the headers and returns status, headers and the whole body', async () => {
    const r = await httpGet(new URL(`${base}/ok`), { 'X-API-Key': 'k1' }, never)
    expect(r.status).toBe(200)
    expect(r.ok).toBe(true)
    expect(JSON.parse(r.text)).toEqual({ got: 'k1' })
    expect(r.header('X-Request-Id')).toBe('abc')
    expect(r.header('set-cookie')).toBe('a=1, b=2')
    expect(r.header('retry-after')).toBeNull()
  })

  it('returns a refusal as a status, not an error', async () => {
    const r = await httpGet(new URL(`${base}/teapot`), {}, never)
    expect(r).toMatchObject({ status: 418, ok: false, text: 'no' })
  })

  it('refuses a body past the cap instead of holding it in memory', async () => {
    await expect(httpGet(new URL(`${base}/huge`), {}, never)).rejects.toThrow(/over 16 MB/)
  })

  it('fails when the connection drops mid-body', async () => {
    await expect(httpGet(new URL(`${base}/cut`), {}, never)).rejects.toThrow()
  })

  it('stops waiting when its signal aborts', async () => {
    const c = new AbortController()
    setTimeout(() => c.abort(), 30)
    const started = Date.now()
    await expect(httpGet(new URL(`${base}/slow`), {}, c.signal)).rejects.toThrow(/abort/i)
    expect(Date.now() - started).toBeLessThan(4000)
  })

  it('fails on a refused connection and on a scheme it does not speak', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    closed.close()
    await expect(httpGet(new URL(`http://127.0.0.1:${port}/`), {}, never)).rejects.toThrow(
      /ECONNREFUSED/,
    )
    await expect(httpGet(new URL('ftp://127.0.0.1/'), {}, never)).rejects.toThrow(/protocol/)
  })
})

describe('httpGet on a kept-alive connection that died while idle', () => {
  // Each connection answers its first request; a later one on the same connection is met by the
  // connection dropping unanswered, the way a request sent on a connection that died during a
  // sleep fails. `/hangup` drops even a new connection's first request.
  let dying: Server
  let url: string
  const seen: { path: string; nth: number }[] = []

  beforeAll(async () => {
    const perSocket = new WeakMap<object, number>()
    dying = createServer((req, res) => {
      const nth = (perSocket.get(req.socket) ?? 0) + 1
      perSocket.set(req.socket, nth)
      seen.push({ path: req.url ?? '', nth })
      if (nth > 1 || req.url === '/hangup') req.socket.destroy()
      else res.end(`answered ${req.url}`)
    })
    await new Promise<void>((r) => dying.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(dying.address() as AddressInfo).port}`
  })

  afterAll(() => {
    dying.closeAllConnections()
    dying.close()
  })

  it('goes again once on a new connection, and the caller sees the answer', async () => {
    seen.length = 0
    expect((await httpGet(new URL(`${url}/a`), {}, never)).text).toBe('answered /a')
    expect((await httpGet(new URL(`${url}/b`), {}, never)).text).toBe('answered /b')
    // /b went out on the kept-alive connection first (dropped), then on a new one.
    expect(seen).toEqual([
      { path: '/a', nth: 1 },
      { path: '/b', nth: 2 },
      { path: '/b', nth: 1 },
    ])
  })

  it('goes through every dead connection in the pool, then once on a new one', async () => {
    // Three connections, each answered once and kept alive in the pool.
    await Promise.all(['/c', '/d', '/e'].map((p) => httpGet(new URL(`${url}${p}`), {}, never)))
    seen.length = 0
    expect((await httpGet(new URL(`${url}/f`), {}, never)).text).toBe('answered /f')
    expect(seen.map((s) => s.nth)).toEqual([2, 2, 2, 1])
  })

  it("sends on a new connection only once: what fails there is the caller's error", async () => {
    seen.length = 0
    // The pool still holds the connection that answered /f: the first send reuses it.
    await expect(httpGet(new URL(`${url}/hangup`), {}, never)).rejects.toThrow(/hang up/)
    expect(seen).toEqual([
      { path: '/hangup', nth: 2 },
      { path: '/hangup', nth: 1 },
    ])
  })
})

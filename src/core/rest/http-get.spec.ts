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

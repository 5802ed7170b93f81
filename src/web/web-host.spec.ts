import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { createServer, request } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { AppHostApi } from '../app/host-api'
import type { BridgeEvent, CommandOutcome } from '../shared/bridge'
import { FakeClock } from '../core/clock'
import { CODE_TTL_MS } from './launch-codes'
import { startWebHost, type WebHost } from './web-host'

/** A small real AppHostApi: records commands and lets the test push events. */
class RecordingApp implements AppHostApi {
  readonly calls: { command: string; params: unknown }[] = []
  private readonly listeners = new Set<(e: BridgeEvent) => void>()
  invoke(command: string, params: unknown): Promise<CommandOutcome<unknown>> {
    this.calls.push({ command, params })
    return Promise.resolve(
      command === 'getSnapshot'
        ? { ok: true, result: { hello: 1 } }
        : { ok: false, error: { code: 'INVALID_INPUT', message: 'no' } },
    )
  }
  subscribe(l: (e: BridgeEvent) => void): () => void {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }
  push(e: BridgeEvent): void {
    for (const l of this.listeners) l(e)
  }
  listenerCount(): number {
    return this.listeners.size
  }
  onAlertFired(): () => void {
    return () => undefined
  }
  trayQuotes(): [] {
    return []
  }
  cachedDesk(): null {
    return null
  }
  notifyResume(): void {}
  announceOwedAlerts(): void {}
  close(): Promise<void> {
    return Promise.resolve()
  }
}

function rawGet(
  port: number,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })
}

function openBridge(
  url: string,
  headers: Record<string, string>,
): Promise<{ ws: WebSocket } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers })
    ws.once('open', () => resolve({ ws }))
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }))
    ws.once('error', () => undefined)
  })
}

/** The code a launch address carries. */
const codeOf = (url: string): string => new URL(url).searchParams.get('token') ?? ''

/** A session as a browser gets one: a fresh launch address visited once; the Cookie header. */
async function sessionOf(host: WebHost): Promise<string> {
  const res = await rawGet(host.port, `/?token=${codeOf(host.launchUrl())}`, {
    host: `127.0.0.1:${host.port}`,
  })
  return String(res.headers['set-cookie']).split(';')[0]!
}

describe('browser host', () => {
  let host: WebHost
  let app: RecordingApp
  let clock: FakeClock
  beforeEach(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-web-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Tickdesk</title>')
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(tmpdir(), 'tickdesk-secret.txt'), 'secret')
    app = new RecordingApp()
    clock = new FakeClock(Date.UTC(2026, 10, 28, 12))
    host = await startWebHost({ app, rendererDir: dir, clock })
  })
  afterEach(async () => {
    await host.close()
  })

  it('binds 127.0.0.1 only and makes a new one-time address each time it is asked', () => {
    const first = host.launchUrl()
    expect(first).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?token=[\\w-]{32}$`))
    expect(host.launchUrl()).not.toBe(first)
    expect(host.launchUrl('/strip')).toMatch(/\/strip\?token=/)
  })

  it('trades a launch code for a session cookie of another value and a code-free address, then serves the page with a CSP header', async () => {
    const hostHeader = { host: `127.0.0.1:${host.port}` }
    const code = codeOf(host.launchUrl())
    const res = await rawGet(host.port, `/?token=${code}`, hostHeader)
    expect(res.status).toBe(303)
    expect(res.headers['location']).toBe('/')
    expect(res.body).not.toContain('Tickdesk</title>')
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toMatch(new RegExp(`^tickdesk_session_${host.port}=[\\w-]{32};`))
    expect(cookie).not.toContain(code)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    const cookieHeader = { ...hostHeader, cookie: cookie.split(';')[0]! }
    const page = await rawGet(host.port, '/', cookieHeader)
    expect(page.status).toBe(200)
    expect(page.body).toContain('Tickdesk')
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'")
    expect((await rawGet(host.port, '/assets/app.js', cookieHeader)).status).toBe(200)
    // The code itself is no session: a cookie holding it is refused.
    const asCookie = await rawGet(host.port, '/', {
      ...hostHeader,
      cookie: `tickdesk_session_${host.port}=${code}`,
    })
    expect(asCookie.status).toBe(403)
  })

  it('takes a launch code once: a second visit with it is refused, and says how to get another', async () => {
    const hostHeader = { host: `127.0.0.1:${host.port}` }
    const code = codeOf(host.launchUrl())
    expect((await rawGet(host.port, `/?token=${code}`, hostHeader)).status).toBe(303)
    const again = await rawGet(host.port, `/?token=${code}`, hostHeader)
    expect(again.status).toBe(403)
    expect(again.body).toMatch(/worked once.*Ask Tickdesk for a new one/)
    expect(again.headers['set-cookie']).toBeUndefined()
  })

  it('lets a launch code expire unused within a minute', async () => {
    const hostHeader = { host: `127.0.0.1:${host.port}` }
    const late = codeOf(host.launchUrl())
    const inTime = codeOf(host.launchUrl())
    clock.advance(CODE_TTL_MS - 1)
    expect((await rawGet(host.port, `/?token=${inTime}`, hostHeader)).status).toBe(303)
    clock.advance(1)
    expect((await rawGet(host.port, `/?token=${late}`, hostHeader)).status).toBe(403)
  })

  it('keeps sessions apart per port and takes no cookie named otherwise', async () => {
    const session = (await sessionOf(host)).split('=')[1]!
    for (const cookie of [
      `tickdesk_session_${host.port + 1}=${session}`,
      `tickdesk_token_${host.port}=${session}`,
      `tickdesk_session=${session}`,
    ]) {
      const res = await rawGet(host.port, '/', { host: `127.0.0.1:${host.port}`, cookie })
      expect(res.status, cookie).toBe(403)
    }
  })

  it('serves the ticker strip at /strip: the same page, reached by its launch address or the session', async () => {
    const host_ = { host: `127.0.0.1:${host.port}` }
    const code = codeOf(host.launchUrl('/strip'))
    const withCode = await rawGet(host.port, `/strip?token=${code}&view=x`, host_)
    expect(withCode.status).toBe(303)
    expect(withCode.headers['location']).toBe('/strip?view=x')
    const withCookie = await rawGet(host.port, '/strip', {
      ...host_,
      cookie: await sessionOf(host),
    })
    expect(withCookie.status).toBe(200)
    expect(withCookie.body).toContain('Tickdesk</title>')
    expect(String(withCookie.headers['content-security-policy'])).toContain(
      "frame-ancestors 'none'",
    )
  })

  it('answers 403 with no data to requests without a session or a good code', async () => {
    const code = codeOf(host.launchUrl())
    for (const path of [
      '/',
      '/?token=wrong',
      '/assets/app.js',
      `/?token=${code.slice(0, -1)}`,
      `/?token=${code}x`,
      '/strip',
      '/strip?token=wrong',
    ]) {
      const res = await rawGet(host.port, path, { host: `127.0.0.1:${host.port}` })
      expect(res.status, path).toBe(403)
      expect(res.body).not.toContain('Tickdesk</title>')
    }
  })

  it('refuses a forged Host header (DNS rebinding) even with a good code, and leaves the code unspent', async () => {
    const code = codeOf(host.launchUrl())
    const res = await rawGet(host.port, `/?token=${code}`, { host: 'evil.example:80' })
    expect(res.status).toBe(403)
    const real = await rawGet(host.port, `/?token=${code}`, { host: `localhost:${host.port}` })
    expect(real.status).toBe(303)
  })

  it('refuses a cross-origin page even with a good code', async () => {
    const res = await rawGet(host.port, `/?token=${codeOf(host.launchUrl())}`, {
      host: `127.0.0.1:${host.port}`,
      origin: 'https://evil.example',
    })
    expect(res.status).toBe(403)
  })

  it('answers only GET and HEAD; HEAD with the headers and no body', async () => {
    const headers = { host: `127.0.0.1:${host.port}`, cookie: await sessionOf(host) }
    const post = await rawGet(host.port, '/', headers, 'POST')
    expect([post.status, post.body]).toEqual([405, 'Method not allowed'])
    const head = await rawGet(host.port, '/', headers, 'HEAD')
    expect([head.status, head.body]).toEqual([200, ''])
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8')
  })

  it('says why it refuses, in plain text that is never cached', async () => {
    const cookie = await sessionOf(host)
    const answers = [
      await rawGet(host.port, '/', { host: 'evil.example' }),
      await rawGet(host.port, '/', {
        host: `127.0.0.1:${host.port}`,
        origin: 'https://evil.example',
      }),
      await rawGet(host.port, '/', { host: `127.0.0.1:${host.port}` }),
      await rawGet(host.port, '/missing.js', { host: `127.0.0.1:${host.port}`, cookie }),
      await rawGet(host.port, '//', { host: `127.0.0.1:${host.port}` }),
    ]
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [403, 'Forbidden host'],
      [403, 'Forbidden origin'],
      [403, 'Forbidden: open the address Tickdesk printed'],
      [404, 'Not found'],
      [500, 'Internal error'],
    ])
    for (const a of answers) {
      expect(a.headers['content-type']).toBe('text/plain; charset=utf-8')
      expect(a.headers['cache-control']).toBe('no-store')
    }
  })

  it('sends the page and the code’s redirect with no referrer, no sniffing and no caching', async () => {
    const hostHeader = { host: `127.0.0.1:${host.port}` }
    const redirect = await rawGet(host.port, `/?token=${codeOf(host.launchUrl())}`, hostHeader)
    expect(redirect.headers['referrer-policy']).toBe('no-referrer')
    expect(redirect.headers['cache-control']).toBe('no-store')
    const cookie = String(redirect.headers['set-cookie']).split(';')[0]!
    const page = await rawGet(host.port, '/', { ...hostHeader, cookie })
    expect(page.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
  })

  it('never serves files outside the renderer folder', async () => {
    const cookie = await sessionOf(host)
    for (const path of [
      '/../tickdesk-secret.txt',
      '/%2e%2e/tickdesk-secret.txt',
      '/assets/..%2f..%2ftickdesk-secret.txt',
    ]) {
      const res = await rawGet(host.port, path, { host: `127.0.0.1:${host.port}`, cookie })
      expect(res.status, path).not.toBe(200)
      expect(res.body).not.toContain('secret')
    }
  })

  it('opens the bridge only with a session and our own Origin; a launch code does not open it', async () => {
    const origin = `http://127.0.0.1:${host.port}`
    const cookie = await sessionOf(host)
    const noSession = await openBridge(`ws://127.0.0.1:${host.port}/bridge`, { origin })
    expect(noSession).toEqual({ status: 403 })
    const code = codeOf(host.launchUrl())
    const withCode = await openBridge(`ws://127.0.0.1:${host.port}/bridge?token=${code}`, {
      origin,
    })
    expect(withCode).toEqual({ status: 403 })
    const foreign = await openBridge(`ws://127.0.0.1:${host.port}/bridge`, {
      origin: 'https://evil.example',
      cookie,
    })
    expect(foreign).toEqual({ status: 403 })
    const noOrigin = await openBridge(`ws://127.0.0.1:${host.port}/bridge`, { cookie })
    expect(noOrigin).toEqual({ status: 403 })
    const elsewhere = await openBridge(`ws://127.0.0.1:${host.port}/other`, { origin, cookie })
    expect(elsewhere).toEqual({ status: 403 })
    expect(app.listenerCount()).toBe(0)
    const opened = await openBridge(`ws://127.0.0.1:${host.port}/bridge`, { origin, cookie })
    expect('ws' in opened).toBe(true)
    if ('ws' in opened) opened.ws.close()
  })

  it('listens on 127.0.0.1 only, on the port asked for, and stops answering once closed', async () => {
    const other = await new Promise<number>((resolve) => {
      const probe = createServer()
      probe.listen(0, '127.0.0.1', () => {
        const port = (probe.address() as AddressInfo).port
        probe.close(() => resolve(port))
      })
    })
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-web-port-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html>')
    const fixed = await startWebHost({ app, rendererDir: dir, port: other })
    expect(fixed.port).toBe(other)
    expect(fixed.launchUrl()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${other}/\\?token=`))
    // Not on another loopback address: bound to 127.0.0.1, not to every interface.
    const elsewhere = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.2', port: other, path: '/' }, () => resolve('answered'))
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'))
      req.end()
    })
    expect(elsewhere).toBe('ECONNREFUSED')
    // A port already taken is an error, not a hang.
    await expect(startWebHost({ app, rendererDir: dir, port: other })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    })
    const opened = await openBridge(`ws://127.0.0.1:${other}/bridge`, {
      origin: `http://127.0.0.1:${other}`,
      cookie: await sessionOf(fixed),
    })
    if (!('ws' in opened)) throw new Error('bridge refused')
    const closedSocket = new Promise<void>((r) => opened.ws.once('close', () => r()))
    await fixed.close()
    await closedSocket
    await expect(rawGet(other, '/', { host: `127.0.0.1:${other}` })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    })
  })

  it('carries commands and events over the bridge and drops malformed frames', async () => {
    const opened = await openBridge(`ws://127.0.0.1:${host.port}/bridge`, {
      origin: `http://127.0.0.1:${host.port}`,
      cookie: await sessionOf(host),
    })
    if (!('ws' in opened)) throw new Error('bridge refused')
    const ws = opened.ws
    const frames: unknown[] = []
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())))
    ws.send('not json')
    ws.send(JSON.stringify({ id: 'x', command: 1 }))
    ws.send(JSON.stringify({ id: 1, command: 'getSnapshot', params: {} }))
    await expect.poll(() => frames.length).toBe(1)
    expect(frames[0]).toEqual({
      kind: 'response',
      id: 1,
      outcome: { ok: true, result: { hello: 1 } },
    })
    expect(app.calls).toEqual([{ command: 'getSnapshot', params: {} }])
    app.push({ type: 'openSymbol', key: 'crypto:BTCUSDT' })
    await expect.poll(() => frames.length).toBe(2)
    expect(frames[1]).toEqual({
      kind: 'event',
      event: { type: 'openSymbol', key: 'crypto:BTCUSDT' },
    })
    ws.close()
    await expect.poll(() => app.listenerCount()).toBe(0)
  })
})

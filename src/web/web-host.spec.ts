import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { AppHostApi } from '../app/host-api'
import type { BridgeEvent, CommandOutcome } from '../shared/bridge'
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
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
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

describe('browser host', () => {
  let host: WebHost
  let app: RecordingApp
  const token = 'test-token-abcdefghijklmnopqrstuvwxyz'

  beforeEach(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-web-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Tickdesk</title>')
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(tmpdir(), 'tickdesk-secret.txt'), 'secret')
    app = new RecordingApp()
    host = await startWebHost({ app, rendererDir: dir, token })
  })

  afterEach(async () => {
    await host.close()
  })

  it('binds 127.0.0.1 only and prints a tokened address', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${token}`)
  })

  it('trades the tokened address for a per-port cookie and a token-free address, then serves the page with a CSP header', async () => {
    const hostHeader = { host: `127.0.0.1:${host.port}` }
    const res = await rawGet(host.port, `/?token=${token}`, hostHeader)
    expect(res.status).toBe(303)
    expect(res.headers['location']).toBe('/')
    expect(res.body).not.toContain('Tickdesk</title>')
    const cookie = String(res.headers['set-cookie'])
    expect(cookie).toMatch(new RegExp(`^tickdesk_token_${host.port}=${token};`))
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    const cookieHeader = { ...hostHeader, cookie: `tickdesk_token_${host.port}=${token}` }
    const page = await rawGet(host.port, '/', cookieHeader)
    expect(page.status).toBe(200)
    expect(page.body).toContain('Tickdesk')
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'")
    expect((await rawGet(host.port, '/assets/app.js', cookieHeader)).status).toBe(200)
  })

  it('takes no cookie named for another port (another Tickdesk on 127.0.0.1), nor the old unscoped one', async () => {
    for (const cookie of [`tickdesk_token_${host.port + 1}=${token}`, `tickdesk_token=${token}`]) {
      const res = await rawGet(host.port, '/', { host: `127.0.0.1:${host.port}`, cookie })
      expect(res.status, cookie).toBe(403)
    }
  })

  it('serves the ticker strip at /strip: the same page, reached by its tokened address or the cookie', async () => {
    const host_ = { host: `127.0.0.1:${host.port}` }
    const withToken = await rawGet(host.port, `/strip?token=${token}&view=x`, host_)
    expect(withToken.status).toBe(303)
    expect(withToken.headers['location']).toBe('/strip?view=x')
    const withCookie = await rawGet(host.port, '/strip', {
      ...host_,
      cookie: `tickdesk_token_${host.port}=${token}`,
    })
    expect(withCookie.status).toBe(200)
    expect(withCookie.body).toContain('Tickdesk</title>')
    expect(String(withCookie.headers['content-security-policy'])).toContain(
      "frame-ancestors 'none'",
    )
  })

  it('answers 403 with no data to requests without the right token', async () => {
    for (const path of [
      '/',
      '/?token=wrong',
      '/assets/app.js',
      `/?token=${token.slice(0, -1)}`,
      '/strip',
      '/strip?token=wrong',
    ]) {
      const res = await rawGet(host.port, path, { host: `127.0.0.1:${host.port}` })
      expect(res.status, path).toBe(403)
      expect(res.body).not.toContain('Tickdesk</title>')
    }
  })

  it('refuses a forged Host header (DNS rebinding) even with the token', async () => {
    const res = await rawGet(host.port, `/?token=${token}`, { host: 'evil.example:80' })
    expect(res.status).toBe(403)
  })

  it('refuses a cross-origin page even with the token', async () => {
    const res = await rawGet(host.port, `/?token=${token}`, {
      host: `127.0.0.1:${host.port}`,
      origin: 'https://evil.example',
    })
    expect(res.status).toBe(403)
  })

  it('never serves files outside the renderer folder', async () => {
    for (const path of [
      '/../tickdesk-secret.txt',
      '/%2e%2e/tickdesk-secret.txt',
      '/assets/..%2f..%2ftickdesk-secret.txt',
    ]) {
      const res = await rawGet(host.port, path, {
        host: `127.0.0.1:${host.port}`,
        cookie: `tickdesk_token_${host.port}=${token}`,
      })
      expect(res.status, path).not.toBe(200)
      expect(res.body).not.toContain('secret')
    }
  })

  it('opens the bridge only with the token and our own Origin', async () => {
    const origin = `http://127.0.0.1:${host.port}`
    const noToken = await openBridge(`ws://127.0.0.1:${host.port}/bridge`, { origin })
    expect(noToken).toEqual({ status: 403 })
    const foreign = await openBridge(`ws://127.0.0.1:${host.port}/bridge?token=${token}`, {
      origin: 'https://evil.example',
    })
    expect(foreign).toEqual({ status: 403 })
    const noOrigin = await openBridge(`ws://127.0.0.1:${host.port}/bridge?token=${token}`, {})
    expect(noOrigin).toEqual({ status: 403 })
    expect(app.listenerCount()).toBe(0)
  })

  it('carries commands and events over the bridge and drops malformed frames', async () => {
    const opened = await openBridge(`ws://127.0.0.1:${host.port}/bridge?token=${token}`, {
      origin: `http://127.0.0.1:${host.port}`,
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

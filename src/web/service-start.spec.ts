import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createAppService, memorySecretStore, type AppService } from '../app'
import type { DemoService } from '../app/feed/feed-chooser'
import { silentLogger } from '../core/log'
import { openDataStores } from '../core/persistence/stores'
import { blankQuote } from '../shared/quote'
import { startBrowserHost, type BrowserHost } from './browser-host'
import { hostGet as get, sessionCookie, visit } from './testing/visit'
import { startWebHost, type WebHost } from './web-host'

/**
 * The browser host listens and serves the page (with the cached picture) while the app service
 * is still starting; a page's bridge waits until the service has started, so no request meets a
 * half-started one, and a service that cannot start is answered as such (503), not hung on.
 */
const PAGE = '<!doctype html><title>Tickdesk</title><body><div id="app"></div></body>'
// Nothing listens on the discard port: the service is down, as on a cold start with no network.
const DOWN = 'http://127.0.0.1:9'

/** A data folder as a demo session left it: one list and its quote cache. */
async function dataFolder(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-service-start-'))
  const stores = openDataStores(dir)
  await stores.watchlists.save({
    watchlists: [{ id: 'w1', name: 'Held start', symbols: ['crypto:BTCUSDT', 'crypto:ETHUSDT'] }],
    activeId: 'w1',
  })
  const quote = { ...blankQuote('crypto', 'BTCUSDT', Date.UTC(2026, 10, 27, 14), 'stream') }
  await stores.quotesOf({ demo: true, baseUrl: '' }).save([{ ...quote, last: 91_234.5 }])
  return dir
}

function rendererFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-service-start-page-'))
  writeFileSync(join(dir, 'index.html'), PAGE)
  return dir
}

/** Demo mode whose service starts only when `release` is called (down once it has). */
function heldDemo(): { demo: () => Promise<DemoService>; release(): void; asked: boolean } {
  let release = (): void => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const held = {
    asked: false,
    release: () => release(),
    demo: async (): Promise<DemoService> => {
      held.asked = true
      await gate
      return { url: DOWN, streamUrl: DOWN, apiKey: 'demo', plan: 'pro', close: async () => {} }
    },
  }
  return held
}

/** The page's bridge socket: what happened to it, in order. */
function bridge(port: number, cookie: string): { ws: WebSocket; seen: string[] } {
  const origin = `http://127.0.0.1:${port}`
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, { headers: { origin, cookie } })
  const seen: string[] = []
  ws.on('open', () => seen.push('open'))
  ws.on('unexpected-response', (_req, res) => seen.push(`status ${res.statusCode}`))
  ws.on('error', () => undefined)
  ws.on('message', (data: Buffer) => seen.push(`message ${data.toString()}`))
  return { ws, seen }
}

const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

let started: BrowserHost | null = null
let host: WebHost | null = null
let app: AppService | null = null
afterEach(async () => {
  await started?.close()
  await host?.close()
  await app?.close()
  started = host = app = null
})

describe('the browser host while the service starts', () => {
  it('serves the cached page at once; the bridge opens only once the service has started', async () => {
    const held = heldDemo()
    const order: string[] = []
    started = await startBrowserHost({
      dataDir: await dataFolder(),
      env: {},
      secretStore: memorySecretStore(null),
      demo: held.demo,
      logger: silentLogger,
      rendererDir: rendererFolder(),
    })
    void started.ready.then(() => order.push('ready'))
    // Listening with the service's start held in its feed step: the page has the cached list.
    const { cookie, page } = await visit(started.host)
    expect(order).toEqual([])
    expect(page).toContain('data-cached-key="crypto:BTCUSDT"')
    expect(page).toContain('91,234.5')

    const { ws, seen } = bridge(started.host.port, cookie)
    await settle(300)
    expect(held.asked).toBe(true)
    expect(seen).toEqual([])
    expect(ws.readyState).toBe(WebSocket.CONNECTING)

    held.release()
    await expect.poll(() => seen).toContain('open')
    expect(order).toEqual(['ready'])
    ws.send(JSON.stringify({ id: 1, command: 'getSnapshot', params: {} }))
    await expect.poll(() => seen.some((s) => s.includes('"kind":"response"'))).toBe(true)
    const response = seen.find((s) => s.includes('"kind":"response"')) ?? ''
    // Answered by the started service: its feed is the demo the start was waiting for.
    expect(JSON.parse(response.slice('message '.length))).toMatchObject({
      kind: 'response',
      id: 1,
      outcome: { ok: true, result: { status: { demo: true } } },
    })
    ws.close()
  })

  it('serves the cached page while the keychain has not answered yet', async () => {
    let answer = (): void => {}
    const keychain = new Promise<void>((resolve) => (answer = resolve))
    const store = memorySecretStore(null)
    const held = heldDemo()
    started = await startBrowserHost({
      dataDir: await dataFolder(),
      env: {},
      // A keychain that takes its time (a locked one, a slow secret service): the picture does
      // not need the key.
      secretStore: { ...store, get: () => keychain.then(() => store.get()) },
      demo: held.demo,
      logger: silentLogger,
      rendererDir: rendererFolder(),
    })
    try {
      const { page } = await visit(started.host)
      expect(page).toContain('data-cached-key="crypto:BTCUSDT"')
      expect(held.asked).toBe(false)
    } finally {
      answer()
      held.release()
    }
    await started.ready
  })

  it('tells a page whose service could not start so (503), and still serves the page', async () => {
    let fail = (_: Error): void => {}
    const starting = new Promise<AppService>((_, reject) => (fail = reject))
    host = await startWebHost({ app: starting, rendererDir: rendererFolder() })
    const cookie = await sessionCookie(host)
    const { seen } = bridge(host.port, cookie)
    await settle(200)
    expect(seen).toEqual([])
    fail(new Error('the data folder cannot be read'))
    await expect.poll(() => seen).toEqual(['status 503'])
    // Given no picture of the start's own, the page waited for the start; it failed: as built.
    expect((await get(host.port, '/', cookie)).body).toBe(PAGE)
  })

  it('a started service (no start to wait for) opens the bridge at once', async () => {
    app = await createAppService({
      dataDir: await dataFolder(),
      env: { TICKDESK_BASE_URL: DOWN, TICKDESK_PLAN: 'pro' },
      secretStore: memorySecretStore('a-key'),
      demo: () => Promise.reject(new Error('no demo in this test')),
    })
    host = await startWebHost({ app, rendererDir: rendererFolder() })
    const { cookie } = await visit(host)
    const { ws, seen } = bridge(host.port, cookie)
    await expect.poll(() => seen).toContain('open')
    ws.close()
  })
})

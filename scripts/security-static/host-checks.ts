/** The scan's checks run against live parts: the browser host's gate and the app. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import type { AppHostApi } from '../../src/app/host-api'
import { EMPTY_RING, packRing, withKey } from '../../src/app/keys/key-binding'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import { FakeClock } from '../../src/core/clock'
import { openDataStores } from '../../src/core/persistence/stores'
import { SettingsSchema } from '../../src/shared/settings'
import { CODE_TTL_MS } from '../../src/web/launch-codes'
import { A, KEY, type ScanSubject } from './subject'

/** The browser host: a session only from a one-time launch code, and the bridge only on a session. */
export async function browserHostSessionOnly(s: ScanSubject): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-scan-page-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Tickdesk</title>')
  const app: AppHostApi = {
    invoke: async () => ({ ok: true, result: null }),
    subscribe: () => () => undefined,
    onAlertFired: () => () => undefined,
    trayQuotes: () => [],
    cachedDesk: () => null,
    notifyResume: () => undefined,
    announceOwedAlerts: () => undefined,
    close: async () => undefined,
  }
  const clock = new FakeClock(0)
  const host = await s.startWebHost({ app, rendererDir: dir, clock })
  const out: string[] = []
  try {
    const at = (path: string, cookie?: string) => get(host.port, path, cookie)
    if ((await at('/')).status !== 403) out.push('the page is served without a session')
    const code = new URL(host.launchUrl()).searchParams.get('token') ?? ''
    const first = await at(`/?token=${code}`)
    const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0] ?? ''
    if (first.status !== 303 || cookie === '') out.push('a launch code does not open a session')
    if (cookie.includes(code)) out.push('the session cookie holds the launch code')
    if ((await at(`/?token=${code}`)).status !== 403) out.push('a launch code works twice')
    if ((await at('/', cookie)).status !== 200) out.push('the session does not open the page')
    const late = new URL(host.launchUrl()).searchParams.get('token') ?? ''
    clock.advance(CODE_TTL_MS)
    if ((await at(`/?token=${late}`)).status !== 403) out.push('a launch code works after a minute')
    if (await bridgeOpens(host.port, { origin: `http://127.0.0.1:${host.port}` }, `?token=${late}`))
      out.push('the bridge opens without a session')
    if (await bridgeOpens(host.port, { origin: 'https://evil.example', cookie }, ''))
      out.push('the bridge opens for another origin')
  } finally {
    await host.close()
  }
  return out
}

/**
 * The app run whole: TICKDESK_API_KEY with a base URL only settings.json names (a file a page can
 * write), and a kept key with the base URL moved to another origin. A receiver on 127.0.0.1 there
 * must see no key in any header.
 */
export async function appSendsNoKeyElsewhere(s: ScanSubject): Promise<string[]> {
  const seen: IncomingHttpHeaders[] = []
  const receiver = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(503).end()
  })
  receiver.on('upgrade', (req, socket) => {
    seen.push(req.headers)
    socket.destroy()
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  const elsewhere = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  const out: string[] = []
  const demo = (): Promise<never> => Promise.reject(new Error('no demo in the scan'))
  try {
    for (const [what, env, store] of [
      ['TICKDESK_API_KEY', { TICKDESK_API_KEY: KEY }, memorySecretStore()],
      ['the kept key', {}, memorySecretStore(packRing(withKey(EMPTY_RING, A, KEY)))],
    ] as const) {
      const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-scan-app-'))
      const stores = openDataStores(dataDir)
      await stores.settings.save(SettingsSchema.parse({ baseUrl: elsewhere }))
      const app = await s.createAppService({ dataDir, env, secretStore: store, demo })
      await new Promise((r) => setTimeout(r, 500))
      await app.close()
      const keys = seen.flatMap((h) => [h['x-api-key'], h['authorization']]).filter(Boolean)
      if (keys.length > 0)
        out.push(`${what} was sent to a base URL read from settings.json (${keys.length} time(s))`)
      seen.length = 0
    }
  } finally {
    await new Promise<void>((r) => receiver.close(() => r()))
  }
  return out
}

function get(
  port: number,
  path: string,
  cookie?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      host: `127.0.0.1:${port}`,
      ...(cookie ? { cookie } : {}),
    }
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, headers: res.headers })
    })
    req.once('error', reject)
    req.end()
  })
}

function bridgeOpens(
  port: number,
  headers: Record<string, string>,
  query: string,
): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge${query}`, { headers })
    ws.once('open', () => {
      ws.close()
      resolve(true)
    })
    ws.once('unexpected-response', () => resolve(false))
    ws.once('error', () => resolve(false))
  })
}

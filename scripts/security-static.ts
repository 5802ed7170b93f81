/**
 * The security scan's checks of behaviour (`npm run security -- --static`): each imports the
 * real functions, window options and servers and checks what they do, so a regression fails
 * here whatever its wording in the source. Each check takes the parts it examines from a
 * ScanSubject; test/architecture/security-static.spec.ts hands it broken ones (a keyForUrl that
 * gives the key to any host, a webhook view that spreads the whole webhook, a window without
 * the sandbox, ...) and expects each check to fail on the regression it stands for.
 *
 * Run with tsx: prints one line per check and exits 1 if any failed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import WebSocket from 'ws'
import { createAppService } from '../src/app/app-service'
import type { AppHostApi, SecretStore } from '../src/app/host-api'
import { savedConfig } from '../src/app/feed/feed-chooser'
import { EMPTY_RING, keyForUrl, packRing, withKey } from '../src/app/keys/key-binding'
import { KeyKeeper } from '../src/app/keys/key-keeper'
import { KeyMoveAsks, type KeyMove } from '../src/app/keys/key-move'
import { memorySecretStore } from '../src/app/keys/memory-secret-store'
import { storedWebhookView } from '../src/app/webhooks/webhook-url-policy'
import { FakeClock } from '../src/core/clock'
import { openDataStores } from '../src/core/persistence/stores'
import { externalLink, isPermissionAllowed } from '../src/main/link-policy'
import { mainWindowOptions, stripWindowOptions } from '../src/main/windows/window-options'
import { WebhookViewSchema, type Webhook } from '../src/shared/alerts/alert'
import { SnapshotSchema } from '../src/shared/bridge'
import { CONTENT_SECURITY_POLICY } from '../src/shared/content-security-policy'
import { SettingsSchema } from '../src/shared/settings'
import { urlProblem } from '../src/shared/url-policy'
import { CODE_TTL_MS } from '../src/web/launch-codes'
import { startWebHost } from '../src/web/web-host'

type Keeper = Pick<
  KeyKeeper,
  'load' | 'keyFor' | 'pendingMove' | 'entryNeeds' | 'set' | 'clear' | 'move'
>

/** What the checks examine; the real parts by default. */
export interface ScanSubject {
  keyForUrl: typeof keyForUrl
  keeper: (store: SecretStore, env: NodeJS.ProcessEnv) => Keeper
  asks: (confirm: (move: KeyMove) => Promise<boolean>) => Pick<KeyMoveAsks, 'ask'>
  storedWebhookView: typeof storedWebhookView
  webhookViewSchema: { safeParse(v: unknown): { success: boolean } }
  snapshotSchema: {
    safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }
  }
  urlProblem: typeof urlProblem
  savedConfig: typeof savedConfig
  windowOptions: Array<[string, typeof mainWindowOptions]>
  externalLink: typeof externalLink
  isPermissionAllowed: typeof isPermissionAllowed
  csp: string
  startWebHost: typeof startWebHost
  createAppService: typeof createAppService
}

export const REAL: ScanSubject = {
  keyForUrl,
  keeper: (store, env) =>
    new KeyKeeper(store, env, { add: () => undefined, withdraw: () => undefined }),
  asks: (confirm) => new KeyMoveAsks(confirm),
  storedWebhookView,
  webhookViewSchema: WebhookViewSchema,
  snapshotSchema: SnapshotSchema,
  urlProblem,
  savedConfig,
  windowOptions: [
    ['main window', mainWindowOptions],
    ['ticker strip', stripWindowOptions],
  ],
  externalLink,
  isPermissionAllowed,
  csp: CONTENT_SECURITY_POLICY,
  startWebHost,
  createAppService,
}

const A = 'https://api.example.com'
const KEY = 'sk-scan-key-0001'

/** The key goes to the origin it was entered for, and to no look-alike of it. */
async function keyOnlyToItsOrigin(s: ScanSubject): Promise<string[]> {
  const ring = withKey(EMPTY_RING, A, KEY)
  const out: string[] = []
  for (const url of [A, `${A}/md/`, `${A}:443`])
    if (s.keyForUrl(ring, url) !== KEY)
      out.push(`keyForUrl withholds the key from its own origin (${url})`)
  for (const url of [
    'http://api.example.com',
    `${A}:8443`,
    'https://api.example.com.',
    'https://evil.example',
    'http://127.0.0.2:8080',
    '',
    undefined,
  ])
    if (s.keyForUrl(ring, url) !== null) out.push(`keyForUrl gives the key to ${String(url)}`)
  return out
}

/** A kept key moves only as confirmed; a page's own key needs a confirmation; clearing is per origin. */
async function keyMovesOnlyAsConfirmed(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  const B = 'https://other.example'
  const keeper = s.keeper(memorySecretStore(packRing(withKey(EMPTY_RING, A, KEY))), {})
  await keeper.load(null)
  if (keeper.keyFor(B) !== null) out.push('the kept key goes to another origin unasked')
  const move = keeper.pendingMove(B)
  if (move?.from !== A || move.to !== B)
    out.push(`the move offered is not ${A} -> ${B}: ${JSON.stringify(move)}`)
  if (keeper.entryNeeds(B) === null)
    out.push('a key entered for another origin is taken without a confirmation')
  await keeper.clear(B)
  if (keeper.keyFor(A) !== KEY)
    out.push('clearing the key of one origin destroyed another origin’s key')
  await keeper.move({ kind: 'move', from: A, to: B })
  if (keeper.keyFor(B) !== KEY)
    out.push('a confirmed move does not bind the key to the origin it named')
  if (keeper.keyFor('https://third.example') !== null)
    out.push('a confirmed move binds more than its origin')
  return out
}

/** TICKDESK_API_KEY goes only to the origin the environment named, never to a file's. */
async function envKeyBoundToEnvOrigin(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  const env = { TICKDESK_API_KEY: KEY }
  const unnamed = s.keeper(memorySecretStore(), env)
  await unnamed.load(null)
  if (unnamed.keyFor(A) !== null)
    out.push('the environment’s key goes to a base URL no environment named')
  const named = s.keeper(memorySecretStore(), env)
  await named.load(A)
  if (named.keyFor(A) !== KEY)
    out.push('the environment’s key is withheld from the origin the environment named')
  if (named.keyFor('https://evil.example') !== null)
    out.push('the environment’s key goes to another origin')
  if (named.pendingMove('https://evil.example') !== null)
    out.push('the environment’s key can be moved from a page')
  return out
}

/** Questions about a key come one at a time, and one refused is not asked again. */
async function keyQuestionsOneAtATime(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  let open = 0
  let most = 0
  let shown = 0
  const asks = s.asks(async () => {
    shown++
    most = Math.max(most, ++open)
    await new Promise((r) => setTimeout(r, 10))
    open--
    return false
  })
  const move = (to: string): KeyMove => ({ kind: 'move', from: A, to })
  await Promise.all([
    asks.ask(move('https://b.example'), () => true),
    asks.ask(move('https://c.example'), () => true),
  ])
  if (most > 1) out.push(`${most} key questions were open at once`)
  await asks.ask(move('https://b.example'), () => true)
  if (shown !== 2) out.push(`a refused question was asked again (${shown} shown for 2 origins)`)
  if (await asks.ask(move('https://d.example'), () => false))
    out.push('a question the page moved on from was answered yes')
  return out
}

/** A page sees a webhook's host and record, never its URL (a bearer secret). */
async function webhookUrlOffBridge(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  const hook: Webhook = {
    id: 'w1',
    url: 'https://hooks.slack.com/services/T0/B0/SCANSECRET?token=SCANTOKEN',
    addedAt: 0,
    failures: 0,
    lastError: null,
    lastDeliveredAt: null,
    signed: false,
  }
  const view = s.storedWebhookView(hook)
  const text = JSON.stringify(view)
  if (/SCANSECRET|SCANTOKEN|\/services\//.test(text))
    out.push(`the page’s view of a webhook holds its URL: ${text}`)
  const allowed = new Set([
    'id',
    'host',
    'kind',
    'failures',
    'lastError',
    'lastDeliveredAt',
    'signed',
    'disabled',
  ])
  for (const key of Object.keys(view))
    if (!allowed.has(key)) out.push(`the page’s view of a webhook has a field ${key}`)
  if (s.webhookViewSchema.safeParse({ ...view, url: hook.url }).success)
    out.push('the bridge’s webhook view takes a url field')
  const snapshot = s.snapshotSchema.safeParse({ webhooks: [{ ...view, url: hook.url }] })
  const hookIssues = snapshot.success
    ? []
    : (snapshot.error?.issues ?? []).filter((i) => i.path[0] === 'webhooks')
  if (hookIssues.length === 0) out.push('the snapshot on the bridge takes a webhook with its url')
  return out
}

/** One URL policy: https, plain http only to this machine, no credentials. */
async function oneUrlPolicy(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  const refused: Array<[string, 'service' | 'stream' | 'webhook']> = [
    ['http://api.example.com', 'service'],
    ['https://KEY@api.example.com', 'service'],
    ['http://127.0.0.1.example.com', 'service'],
    ['ws://stream.example.com/s', 'stream'],
    ['http://hooks.example.com/x', 'webhook'],
    ['https://u:p@hooks.example.com/x', 'webhook'],
  ]
  for (const [url, use] of refused)
    if (s.urlProblem(url, use) === null) out.push(`the ${use} URL ${url} is allowed`)
  const allowed: Array<[string, 'service' | 'stream' | 'webhook']> = [
    [A, 'service'],
    ['http://127.0.0.1:8080', 'service'],
    ['wss://api.example.com/s', 'stream'],
    ['https://hooks.example.com/x', 'webhook'],
  ]
  for (const [url, use] of allowed)
    if (s.urlProblem(url, use) !== null) out.push(`the ${use} URL ${url} is refused`)
  return out
}

/** What the app saved carries no key: the key reaches the engine only through its binding. */
async function savedSettingsCarryNoKey(s: ScanSubject): Promise<string[]> {
  const settings = { ...SettingsSchema.parse({ baseUrl: A, auth: 'bearer' }), apiKey: KEY } as never
  const saved = s.savedConfig(settings)
  const out: string[] = []
  if ('apiKey' in saved && saved.apiKey !== undefined)
    out.push('savedConfig hands a key past the binding')
  if (saved.auth !== 'bearer')
    out.push('savedConfig drops the key’s header scheme (Authorization: Bearer)')
  return out
}

/** Every window's page: no Node, its own context, the OS sandbox, no webview. */
async function windowsSandboxed(s: ScanSubject): Promise<string[]> {
  const want: Record<string, unknown> = {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    preload: '/scan/preload/index.cjs',
  }
  const out: string[] = []
  const state = { x: 0, y: 0, width: 800, height: 600, maximized: false }
  for (const [name, options] of s.windowOptions) {
    const prefs = (options({ preloadPath: '/scan/preload/index.cjs', state }).webPreferences ??
      {}) as Record<string, unknown>
    for (const [key, value] of Object.entries(want))
      if (prefs[key] !== value)
        out.push(
          `the ${name}’s webPreferences.${key} is ${String(prefs[key])}, not ${String(value)}`,
        )
  }
  return out
}

/** Links to the OS browser: https only, no credentials; permissions: notifications only; the CSP. */
async function linksPermissionsCsp(s: ScanSubject): Promise<string[]> {
  const out: string[] = []
  for (const link of [
    'http://example.com',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'https://user:pw@example.com/',
    'https://x@example.com',
  ])
    if (s.externalLink(link) !== null) out.push(`the OS browser is handed ${link}`)
  if (s.externalLink('https://example.com/help') === null) out.push('an https link is refused')
  for (const permission of [
    'media',
    'geolocation',
    'clipboard-read',
    'openExternal',
    'hid',
    'serial',
  ])
    if (s.isPermissionAllowed(permission))
      out.push(`the page may have the ${permission} permission`)
  for (const part of [
    "script-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "connect-src 'self'",
  ])
    if (!s.csp.includes(part)) out.push(`the CSP lacks ${part}`)
  const scripts = s.csp
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d.startsWith('script-src'))
  if (scripts.join() !== "script-src 'self'")
    out.push(`scripts may run from more than the app: ${scripts.join('; ') || 'no script-src'}`)
  return out
}

/** The browser host: a session only from a one-time launch code, and the bridge only on a session. */
async function browserHostSessionOnly(s: ScanSubject): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-scan-page-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Tickdesk</title>')
  const app: AppHostApi = {
    invoke: async () => ({ ok: true, result: null }),
    subscribe: () => () => undefined,
    onAlertFired: () => () => undefined,
    trayQuotes: () => [],
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
async function appSendsNoKeyElsewhere(s: ScanSubject): Promise<string[]> {
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

export const CHECKS: ReadonlyArray<readonly [string, (s: ScanSubject) => Promise<string[]>]> = [
  ['the key goes only to the origin it was entered for', keyOnlyToItsOrigin],
  ['a kept key moves only as confirmed, per origin', keyMovesOnlyAsConfirmed],
  ['TICKDESK_API_KEY binds only to the environment’s origin', envKeyBoundToEnvOrigin],
  ['key questions: one at a time, a refusal not asked again', keyQuestionsOneAtATime],
  ['no webhook URL on the bridge', webhookUrlOffBridge],
  ['one URL policy for the service and webhooks', oneUrlPolicy],
  ['saved settings carry no key, and the key’s scheme', savedSettingsCarryNoKey],
  ['every window’s page sandboxed', windowsSandboxed],
  ['links, permissions and the CSP', linksPermissionsCsp],
  ['the browser host: one-time codes, sessions, the bridge', browserHostSessionOnly],
  ['the app sends no key to a base URL it was not entered for', appSendsNoKeyElsewhere],
]

/** Runs every check on `subject`; the failures in words, per check. */
export async function runChecks(
  subject: ScanSubject = REAL,
): Promise<Array<{ name: string; failures: string[] }>> {
  const results: Array<{ name: string; failures: string[] }> = []
  for (const [name, check] of CHECKS) {
    const failures = await check(subject).catch((e: unknown) => [
      `the check itself failed: ${String(e)}`,
    ])
    results.push({ name, failures })
  }
  return results
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await runChecks()
  console.log('Static checks (behaviour of the real modules)')
  for (const { name, failures } of results) {
    console.log(`  ${failures.length === 0 ? 'ok  ' : 'FAIL'} ${name}`)
    for (const f of failures) console.log(`       ${f}`)
  }
  process.exitCode = results.some((r) => r.failures.length > 0) ? 1 : 0
}

/** The scan's checks of what a page can reach: webhooks, URLs, windows, links, the CSP. */
import type { Webhook } from '../../src/shared/alerts/alert'
import { SettingsSchema } from '../../src/shared/settings'
import { A, KEY, type ScanSubject } from './subject'

/** A page sees a webhook's host and record, never its URL (a bearer secret). */
export async function webhookUrlOffBridge(s: ScanSubject): Promise<string[]> {
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
export async function oneUrlPolicy(s: ScanSubject): Promise<string[]> {
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
export async function savedSettingsCarryNoKey(s: ScanSubject): Promise<string[]> {
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
export async function windowsSandboxed(s: ScanSubject): Promise<string[]> {
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
export async function linksPermissionsCsp(s: ScanSubject): Promise<string[]> {
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

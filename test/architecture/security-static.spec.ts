import { execFileSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDataStores } from '../../src/core/persistence/stores'
import { CHECKS, REAL, runChecks, type ScanSubject } from '../../scripts/security-static'

/**
 * The security scan's checks of behaviour, each held to a realistic regression: a broken part
 * handed to the check in place of the real one must make exactly that check fail (and the real
 * parts pass them all).
 */
const root = join(import.meta.dirname, '..', '..')

async function failuresOf(name: string, subject: Partial<ScanSubject>): Promise<string[]> {
  const check = CHECKS.find(([n]) => n === name)
  if (!check) throw new Error(`no check named ${name}`)
  return check[1]({ ...REAL, ...subject })
}

describe('the security scan’s checks of behaviour', () => {
  it('pass on the code as it is, and `npm run security -- --static` says so', async () => {
    const results = await runChecks()
    expect(results.filter((r) => r.failures.length > 0)).toEqual([])
    const out = execFileSync(
      process.execPath,
      [join(root, 'scripts/security-scan.mjs'), '--static'],
      {
        encoding: 'utf8',
      },
    )
    expect(out).toContain(
      'security scan: passed what ran; static checks: ok; audit: not run (--static)',
    )
  }, 60_000)

  it.each<[string, string, Partial<ScanSubject>, RegExp]>([
    [
      'keyForUrl returns the key for any host',
      'the key goes only to the origin it was entered for',
      { keyForUrl: (ring) => [...ring.keys.values()][0] ?? null },
      /gives the key to https:\/\/evil\.example/,
    ],
    [
      'keyForUrl compares host names only',
      'the key goes only to the origin it was entered for',
      {
        keyForUrl: (ring, url) => {
          const host = url ? URL.parse(url)?.hostname : null
          for (const [origin, key] of ring.keys)
            if (URL.parse(origin)?.hostname === host) return key
          return null
        },
      },
      /gives the key to http:\/\/api\.example\.com/,
    ],
    [
      'the environment’s key falls back to any base URL',
      'TICKDESK_API_KEY binds only to the environment’s origin',
      {
        keeper: (store, env) => {
          const real = REAL.keeper(store, env)
          return {
            ...bound(real),
            keyFor: (url) => real.keyFor(url) ?? env.TICKDESK_API_KEY ?? null,
          }
        },
      },
      /goes to a base URL no environment named/,
    ],
    [
      'clearing a key clears every origin’s',
      'a kept key moves only as confirmed, per origin',
      {
        keeper: (store, env) => {
          const real = REAL.keeper(store, env)
          return { ...bound(real), clear: async () => real.clear('https://api.example.com') }
        },
      },
      /destroyed another origin’s key/,
    ],
    [
      'a key a page enters for its own service is taken unasked',
      'a kept key moves only as confirmed, per origin',
      {
        keeper: (store, env) => ({ ...bound(REAL.keeper(store, env)), entryNeeds: () => null }),
      },
      /taken without a confirmation/,
    ],
    [
      'key questions are asked side by side, and again after a no',
      'key questions: one at a time, a refusal not asked again',
      { asks: (confirm) => ({ ask: (move) => confirm(move) }) },
      /2 key questions were open at once/,
    ],
    [
      'the webhook view spreads the whole webhook',
      'no webhook URL on the bridge',
      { storedWebhookView: (hook) => ({ ...hook, host: 'x', kind: 'json' }) },
      /holds its URL/,
    ],
    [
      'the bridge’s webhook view is not strict',
      'no webhook URL on the bridge',
      { webhookViewSchema: { safeParse: () => ({ success: true }) } },
      /takes a url field/,
    ],
    [
      'the URL policy lets plain http go anywhere',
      'one URL policy for the service and webhooks',
      {
        urlProblem: (url, use) =>
          url.startsWith('http://') || url.startsWith('ws://') ? null : REAL.urlProblem(url, use),
      },
      /the service URL http:\/\/api\.example\.com is allowed/,
    ],
    [
      'savedConfig passes a key through and drops the Bearer scheme',
      'saved settings carry no key, and the key’s scheme',
      {
        savedConfig: (settings) => ({
          baseUrl: settings.baseUrl,
          apiKey: (settings as { apiKey?: string }).apiKey,
        }),
      },
      /hands a key past the binding[\s\S]*drops the key’s header scheme/,
    ],
    [
      'the main window turns off contextIsolation and sandbox',
      'every window’s page sandboxed',
      {
        windowOptions: [
          [
            'main window',
            (input) => {
              const o = REAL.windowOptions[0]![1](input)
              return {
                ...o,
                webPreferences: { ...o.webPreferences, contextIsolation: false, sandbox: false },
              }
            },
          ],
        ],
      },
      /main window’s webPreferences\.contextIsolation is false[\s\S]*sandbox is false/,
    ],
    [
      'plain http links go to the OS browser, and scripts may be eval’d',
      'links, permissions and the CSP',
      {
        externalLink: (raw) => (typeof raw === 'string' ? raw : null),
        csp: REAL.csp.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'"),
      },
      /OS browser is handed http:\/\/example\.com[\s\S]*scripts may run from more than the app/,
    ],
    [
      'the app binds TICKDESK_API_KEY to the base URL in settings.json',
      'the app sends no key to a base URL it was not entered for',
      {
        createAppService: async (opts) => {
          const saved = (await openDataStores(opts.dataDir).settings.load()).value.baseUrl
          return REAL.createAppService({ ...opts, env: { ...opts.env, TICKDESK_BASE_URL: saved } })
        },
      },
      /TICKDESK_API_KEY was sent to a base URL read from settings\.json/,
    ],
    [
      'the browser host serves anyone (a gate that lets every request through)',
      'the browser host: one-time codes, sessions, the bridge',
      { startWebHost: openHost },
      /the page is served without a session[\s\S]*a launch code works twice/,
    ],
  ])('fail when %s', async (_what, check, broken, why) => {
    expect((await failuresOf(check, broken)).join('\n')).toMatch(why)
  })

  it('cover every check with a regression above or in the scan’s own tests', () => {
    const spec = readFileSync(import.meta.filename, 'utf8')
    const uncovered = CHECKS.map(([name]) => name).filter(
      (name) =>
        !spec.includes(`'${name}'`) &&
        name !== 'the browser host: one-time codes, sessions, the bridge',
    )
    expect(uncovered).toEqual([])
  })
})

/** A browser host with no gate: every request gets the page and a cookie. */
const openHost: ScanSubject['startWebHost'] = async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'set-cookie': 'tickdesk_session_0=x' }).end('page')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    launchUrl: () => `http://127.0.0.1:${port}/?token=always-the-same-code`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

/** A keeper's methods bound to it, so a test can replace one and keep the rest. */
function bound(k: ReturnType<ScanSubject['keeper']>): ReturnType<ScanSubject['keeper']> {
  return {
    load: k.load.bind(k),
    keyFor: k.keyFor.bind(k),
    pendingMove: k.pendingMove.bind(k),
    entryNeeds: k.entryNeeds.bind(k),
    set: k.set.bind(k),
    clear: k.clear.bind(k),
    move: k.move.bind(k),
  }
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EMPTY_RING, packRing, withKey } from '../../app/keys/key-binding'
import { KEYCHAIN_SERVICE } from '../../app/secrets/keychain'
import { keysSeen, listenElsewhere, type Receiver } from '../../app/testing/elsewhere-receiver'
import { openDataStores } from '../../core/persistence/stores'
import { startSimulator, type SimServer } from '../../sim'
import { run } from './web'

/**
 * `tickdesk web`'s answers to a moved key, outside the page: the key was entered for the
 * simulator on 127.0.0.1 and settings.json now names a receiver on 127.0.0.2. Only
 * `--trust-base-url` naming that exact origin, or a yes typed in the terminal, sends the key
 * there. Everything is real but the OS keychain, which cannot run here: keytar is an in-memory
 * one holding the key as the app stores it (bound to the simulator's origin).
 */
const keychain = new Map<string, string>()
vi.mock('keytar', () => ({
  getPassword: async (service: string, account: string) =>
    keychain.get(`${service}/${account}`) ?? null,
  setPassword: async (service: string, account: string, password: string) => {
    keychain.set(`${service}/${account}`, password)
  },
  deletePassword: async (service: string, account: string) =>
    keychain.delete(`${service}/${account}`),
}))

let sim: SimServer | null = null
let elsewhere: Receiver | null = null
const dirs: string[] = []
afterEach(async () => {
  await sim?.close()
  await elsewhere?.close()
  sim = elsewhere = null
  keychain.clear()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

/** Runs `tickdesk web ARGS` until `until()` holds (10 s at most); returns its exit code. */
async function runWeb(
  args: string[],
  until: (out: string) => boolean,
  terminal?: PassThrough,
): Promise<{ code: number; out: string }> {
  const rendererDir = tempDir('tickdesk-web-page-')
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Tickdesk</title>')
  const stdout = new PassThrough()
  let out = ''
  stdout.on('data', (c: Buffer) => (out += c.toString()))
  const abort = new AbortController()
  const exit = run(args, {
    stdout,
    stderr: new PassThrough(),
    env: {
      TICKDESK_RENDERER_DIR: rendererDir,
      TICKDESK_PLAN: 'pro',
      TICKDESK_PROFILE: 'web-spec',
      BROWSER: 'none',
    },
    signal: abort.signal,
    ...(terminal ? { stdin: terminal, interactive: true } : {}),
  })
  await vi.waitFor(() => expect(out).toContain('Tickdesk is running at'), { timeout: 10_000 })
  await vi.waitFor(() => expect(until(out)).toBe(true), { timeout: 10_000 }).catch(() => undefined)
  abort.abort()
  return { code: await exit, out }
}

/** A data folder whose settings name the receiver, with the key kept for the simulator. */
async function keyEnteredForSimBaseUrlMoved(): Promise<string> {
  sim = await startSimulator({ seed: 38, tickIntervalMs: 100 })
  elsewhere = await listenElsewhere()
  const dataDir = tempDir('tickdesk-web-data-')
  const stores = openDataStores(dataDir)
  const settings = (await stores.settings.load()).value
  await stores.settings.save({ ...settings, baseUrl: elsewhere.url })
  keychain.set(
    `${KEYCHAIN_SERVICE}/web-spec`,
    packRing(withKey(EMPTY_RING, new URL(sim.url).origin, sim.keys.pro)),
  )
  return dataDir
}

describe('tickdesk web --trust-base-url ORIGIN', () => {
  it('sends the kept key to the base URL saved now only when the flag names its exact origin', async () => {
    const dataDir = await keyEnteredForSimBaseUrlMoved()
    const to = elsewhere!
    const trusted = await runWeb(
      ['--data-dir', dataDir, '--port', '0', '--trust-base-url', to.url],
      () => keysSeen(to).length > 0,
    )
    expect(trusted.code).toBe(0)
    expect(trusted.out).toContain(`Sending the API key to ${to.url}, as --trust-base-url says.`)
    expect(keysSeen(to)).toContain(sim!.keys.pro)
  })

  it('sends no key when the flag names another origin (another port of the same host), nor without the flag', async () => {
    const dataDir = await keyEnteredForSimBaseUrlMoved()
    const to = elsewhere!
    const port = Number(new URL(to.url).port)
    const since = Date.now()
    const other = await runWeb(
      ['--data-dir', dataDir, '--port', '0', '--trust-base-url', `http://127.0.0.2:${port + 1}`],
      () => Date.now() - since > 1500,
    )
    expect(other.code).toBe(0)
    const held = await runWeb(
      ['--data-dir', dataDir, '--port', '0'],
      () => Date.now() - since > 3000,
    )
    expect(held.code).toBe(0)
    expect(held.out).not.toMatch(/Demo mode/)
    expect(held.out).toMatch(/Live prices stopped: .*http:\/\/127\.0\.0\.2:\d+.*--trust-base-url/)
    expect(keysSeen(to)).toEqual([])
  })

  it('refuses a flag that is no service address, saying why', async () => {
    const stderr = new PassThrough()
    let err = ''
    stderr.on('data', (c: Buffer) => (err += c.toString()))
    const code = await run(['--trust-base-url', 'http://evil.example'], {
      stdout: new PassThrough(),
      stderr,
      env: { BROWSER: 'none' },
      signal: new AbortController().signal,
    })
    expect(code).toBe(2)
    expect(err).toMatch(/--trust-base-url: the base URL must use https:\/\//)
  })
})

describe('tickdesk web in a terminal', () => {
  it('asks there, naming both origins in full, and sends the key only on a typed yes', async () => {
    const dataDir = await keyEnteredForSimBaseUrlMoved()
    const to = elsewhere!
    // A line typed before the question shows answers nothing: the trader must have seen it.
    const early = new PassThrough()
    early.write('y\n')
    const since = Date.now()
    const unasked = await runWeb(
      ['--data-dir', dataDir, '--port', '0'],
      () => Date.now() - since > 1500,
      early,
    )
    expect(unasked.out).toMatch(
      /Send your API key to http:\/\/127\.0\.0\.2:\d+\?\n.*entered for http:\/\/127\.0\.0\.1:\d+/,
    )
    expect(keysSeen(to)).toEqual([])

    const terminal = new PassThrough()
    let answered = false
    const sent = await runWeb(
      ['--data-dir', dataDir, '--port', '0'],
      (out) => {
        if (!answered && out.includes('Send your API key')) {
          answered = true
          terminal.write('y\n')
        }
        return keysSeen(to).length > 0
      },
      terminal,
    )
    expect(sent.code).toBe(0)
    expect(keysSeen(to)).toContain(sim!.keys.pro)
  })
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { packKey } from '../../app/keys/key-binding'
import { KEYCHAIN_SERVICE } from '../../app/secrets/keychain'
import { keysSeen, listenElsewhere, type Receiver } from '../../app/testing/elsewhere-receiver'
import { openDataStores } from '../../core/persistence/stores'
import { startSimulator, type SimServer } from '../../sim'
import { run } from './web'

/**
 * `tickdesk web --trust-base-url` (issue 38, finding 1): the key was entered for the simulator on
 * 127.0.0.1 and settings.json now names a receiver on 127.0.0.2. Only the flag, given outside the
 * page, moves the key there. Everything is real but the OS keychain, which cannot run here: keytar
 * is an in-memory one holding the key as the app stores it (bound to the simulator's origin).
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
  until: () => boolean,
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
  })
  await vi.waitFor(() => expect(out).toContain('Tickdesk is running at'), { timeout: 10_000 })
  await vi.waitFor(() => expect(until()).toBe(true), { timeout: 10_000 }).catch(() => undefined)
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
    packKey({ key: sim.keys.pro, origin: new URL(sim.url).origin }),
  )
  return dataDir
}

describe('tickdesk web --trust-base-url', () => {
  it('sends the kept key to the base URL saved now only with the flag', async () => {
    const dataDir = await keyEnteredForSimBaseUrlMoved()
    const to = elsewhere!
    const trusted = await runWeb(
      ['--data-dir', dataDir, '--port', '0', '--trust-base-url'],
      () => keysSeen(to).length > 0,
    )
    expect(trusted.code).toBe(0)
    expect(keysSeen(to)).toContain(sim!.keys.pro)
  })

  it('sends no X-API-Key to the base URL saved now without the flag', async () => {
    const dataDir = await keyEnteredForSimBaseUrlMoved()
    const to = elsewhere!
    // As long as the flagged run took to send the key, and more (it takes ~100 ms).
    const since = Date.now()
    const held = await runWeb(
      ['--data-dir', dataDir, '--port', '0'],
      () => Date.now() - since > 1500,
    )
    expect(held.code).toBe(0)
    expect(held.out).not.toMatch(/Demo mode/)
    expect(held.out).toMatch(/Live prices stopped: .*127\.0\.0\.2.*\n.*--trust-base-url/)
    expect(keysSeen(to)).toEqual([])
  })
})

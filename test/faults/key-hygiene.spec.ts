import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createAppService, type AppService } from '../../src/app/app-service'
import { logAppActivity } from '../../src/app/logs/app-activity-log'
import { openHostLog } from '../../src/app/logs/host-log'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import { main } from '../../src/cli/index'
import type { Logger } from '../../src/core/log'
import { startDemoService, startSimulator, type SimServer } from '../../src/sim'
import { realPause, tempDir } from './harness'

/**
 * Key hygiene (architecture: Secrets): a whole session with a recognisable key, errors forced
 * (401, 500, 429, timeouts), the watch and doctor commands; the key must never show up in logs
 * (the hosts' log files included, at debug level), stdout, stderr, the data dir, error messages,
 * or anything that crosses the bridge.
 */
const CANARY = 'sk-live-TICKDESK-CANARY-5f3a9c1e7b2d4f60'

let sim: SimServer | null = null
let app: AppService | null = null
afterEach(async () => {
  vi.restoreAllMocks()
  await app?.close()
  app = null
  await sim?.close()
  sim = null
})

interface Capture {
  text: () => string
  logger: Logger
  sink: () => Writable
}

function capture(): Capture {
  const parts: string[] = []
  const sink = (): Writable =>
    new Writable({
      write(chunk: Buffer, _e, cb) {
        parts.push(chunk.toString())
        cb()
      },
    })
  // Anything written to the real process streams during the session is captured too.
  for (const stream of [process.stdout, process.stderr]) {
    const real = stream.write.bind(stream) as (...args: unknown[]) => boolean
    const tap = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      parts.push(String(chunk))
      return real(chunk, ...rest)
    }
    vi.spyOn(stream, 'write').mockImplementation(tap as typeof stream.write)
  }
  return {
    text: () => parts.join('\n'),
    logger: {
      log: (level, message, fields) => parts.push(JSON.stringify({ level, message, fields })),
    },
    sink,
  }
}

/** Every file under `dir`, log folder included. */
function dirText(dir: string): string {
  return readdirSync(dir)
    .map((f) => join(dir, f))
    .map((path) => (statSync(path).isDirectory() ? dirText(path) : readFileSync(path, 'utf8')))
    .join('\n')
}

function logText(dataDir: string): string {
  const file = join(dataDir, 'logs', 'tickdesk.log')
  return existsSync(file) ? readFileSync(file, 'utf8') : ''
}

describe('key hygiene', () => {
  it('a full app session with errors forced never leaks the key', async () => {
    const cap = capture()
    const dataDir = tempDir()
    sim = await startSimulator({ seed: 2, tickIntervalMs: 100 })
    const seen: string[] = []
    const record = (x: unknown): void => void seen.push(JSON.stringify(x))

    // The browser host's log, at debug level: every REST call and stream event is written.
    const hostLog = openHostLog({ dataDir, host: 'web', verbose: true })
    const logger = {
      log: (...args: Parameters<typeof cap.logger.log>) => {
        cap.logger.log(...args)
        hostLog.logger.log(...args)
      },
    }
    // Demo first, then the canary key (a 401 from the service), then a good key with faults.
    app = await createAppService({
      dataDir,
      env: { TICKDESK_BASE_URL: sim.url },
      secretStore: memorySecretStore(),
      // No key yet: demo mode until the test enters one.
      demo: () => startDemoService(),
      logger,
    })
    logAppActivity(app, hostLog.logger)
    app.subscribe(record)
    record(await app.invoke('setApiKey', { apiKey: CANARY }))
    await expect.poll(() => app?.snapshot().status.code, { timeout: 10_000 }).toBe('UNAUTHORIZED')
    record(await app.invoke('getCandles', { key: 'futures:ES1!', interval: '1h', limit: 5 }))
    record(await app.invoke('testConnection', {}))
    record(await app.invoke('setApiKey', { apiKey: ` ${CANARY} ` }))
    const typedIntoUrl = await app.invoke('updateSettings', {
      baseUrl: `https://${CANARY}@evil.example`,
    })
    expect(typedIntoUrl).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    record(typedIntoUrl)
    // Typed into the symbol box, a REST turn between the bad key and the good one: the bad key's
    // late 401 must not stop the good key's feed (key-change-race.spec.ts holds that race open).
    record(await app.invoke('addSymbols', { id: 'crypto', inputs: [CANARY] }))

    record(await app.invoke('setApiKey', { apiKey: sim.keys.pro }))
    await expect.poll(() => app?.snapshot().status.state, { timeout: 10_000 }).toBe('live')
    sim.faults.failNext({ status: 500, times: 3 })
    sim.faults.failNext({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSec: 1 })
    record(await app.invoke('getCandles', { key: 'futures:ES1!', interval: '1h', limit: 5 }))
    sim.faults.slow(12_000, 1)
    record(await app.invoke('getCandles', { key: 'futures:ES1!', interval: '1h', limit: 5 }))
    record(await app.invoke('testConnection', {}))
    record(app.snapshot())
    await app.close()
    app = null
    await hostLog.close()

    const logged = logText(dataDir)
    expect(logged).toContain('UNAUTHORIZED') // the log did record the session's failures
    expect(logged).toContain('"level":"debug"')
    for (const secret of [CANARY, sim.keys.pro]) {
      expect(cap.text()).not.toContain(secret)
      expect(seen.join('\n')).not.toContain(secret)
      expect(dirText(dataDir)).not.toContain(secret)
    }
    expect(seen.join('\n')).toContain('UNAUTHORIZED') // the errors did reach the bridge
  }, 60_000)

  it('the watch and doctor commands never print the key, with a bad key or a failing service', async () => {
    const cap = capture()
    sim = await startSimulator({ seed: 2, tickIntervalMs: 100 })
    const dataDirs: string[] = []
    const io = (env: Record<string, string>) => {
      const dataDir = tempDir()
      dataDirs.push(dataDir)
      return {
        stdout: cap.sink(),
        stderr: cap.sink(),
        env: { TICKDESK_BASE_URL: sim!.url, TICKDESK_DATA_DIR: dataDir, ...env },
        signal: new AbortController().signal,
      }
    }
    expect(await main(['doctor'], io({ TICKDESK_API_KEY: CANARY }))).toBe(3)
    expect(await main(['doctor', '--json'], io({ TICKDESK_API_KEY: CANARY }))).toBe(3)
    expect(
      await main(
        ['watch', 'crypto:BTCUSDT', '--json', '--duration', '1', '--verbose'],
        io({ TICKDESK_API_KEY: CANARY }),
      ),
    ).not.toBe(0)
    expect(
      await main(
        ['--verbose', 'candles', 'futures:ES1!', '--json'],
        io({ TICKDESK_API_KEY: CANARY }),
      ),
    ).toBe(3)
    sim.faults.failNext({ status: 500, times: 20 })
    const proIo = io({ TICKDESK_API_KEY: sim.keys.pro, TICKDESK_PLAN: 'pro' })
    await main(
      ['watch', 'crypto:BTCUSDT', 'fx:EURUSD', '--json', '--duration', '1', '--verbose'],
      proIo,
    )
    await main(['doctor', '--json'], proIo)
    await realPause(50)
    const text = cap.text()
    const files = dataDirs.map(dirText).join('\n')
    expect(text).toContain('UNAUTHORIZED')
    expect(dataDirs.map(logText).join('')).toContain('"level":"debug"')
    for (const secret of [CANARY, sim.keys.pro]) {
      expect(text).not.toContain(secret)
      expect(files).not.toContain(secret)
    }
  }, 60_000)
})

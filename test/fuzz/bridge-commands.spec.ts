import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppService, type AppService } from '../../src/app/app-service'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import { COMMAND_NAMES, COMMANDS, ErrorPayloadSchema } from '../../src/shared/bridge'
import { check, fuzzTimeout, printTally } from './counted'
import { startDemoService, startSimulator, type SimServer } from '../../src/sim'

/**
 * Every bridge command with random payloads, through the real AppService (what a compromised or
 * buggy renderer could send): no throw escapes invoke(), every answer is a CommandOutcome, and an
 * answer of INVALID_INPUT leaves the trader's state exactly as it was.
 */

const FIELDS = [
  'id',
  'name',
  'key',
  'ids',
  'toIndex',
  'format',
  'text',
  'query',
  'keys',
  'interval',
  'limit',
  'condition',
  'repeat',
  'enabled',
  'apiKey',
  'theme',
  'plan',
  'pinned',
  'baseUrl',
  'note',
  'hysteresisPct',
  'cooldownSec',
  'expiresAt',
  'alertsPaused',
  'rpmOverride',
  '__proto__',
  'constructor',
]
const value = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.constantFrom(
    'crypto',
    'crypto:BTCUSDT',
    'json',
    'csv',
    '1h',
    'above',
    'dark',
    'pro',
    'http://127.0.0.1:1',
    'javascript:alert(1)',
    '../../etc/passwd',
    'x'.repeat(5000),
  ),
  fc.record(
    {
      kind: fc.constantFrom('above', 'below', 'crossesAbove', 'pctChange', 'x'),
      price: fc.oneof(fc.double(), fc.string()),
    },
    { requiredKeys: [] },
  ),
)
const payload = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }),
)
/** Commands that restart the feed or run the doctor: fewer runs keep the suite fast. */
const SLOW = new Set(['testConnection', 'setApiKey', 'clearApiKey', 'getCandles'])

let app: AppService
let sim: SimServer
beforeAll(async () => {
  // The service address comes from the environment, as a flag or TICKDESK_BASE_URL would give
  // it, so no fuzzed base URL in the settings is ever dialled: with a fuzzed key, Test connection
  // and the feed talk to this simulator on loopback, never to a random host (nor wait on DNS).
  sim = await startSimulator({ port: 0, seed: 5, tickIntervalMs: 1000 })
  app = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-fuzz-bridge-')),
    env: { TICKDESK_BASE_URL: sim.url },
    secretStore: memorySecretStore(),
    demo: () => startDemoService({ seed: 5, tickIntervalMs: 1000 }),
  })
})
afterAll(async () => {
  await app.close()
  await sim.close()
  printTally('bridge commands')
})

function state(a: AppService): string {
  const s = a.snapshot()
  return JSON.stringify([
    s.watchlists,
    s.activeWatchlistId,
    s.alerts,
    s.settings,
    s.keyInfo,
    s.notices,
  ])
}

describe('fuzz: every bridge command', () => {
  for (const command of COMMAND_NAMES) {
    it(
      `${command}: random payloads never throw; INVALID_INPUT changes nothing`,
      async () => {
        await check(
          `bridge ${command}`,
          fc.asyncProperty(payload, async (params) => {
            const before = state(app)
            const outcome = await app.invoke(command, params)
            // What goes back over the bridge honours the contract too.
            const valid = outcome.ok
              ? COMMANDS[command].result.safeParse(outcome.result).success
              : ErrorPayloadSchema.safeParse(outcome.error).success
            expect(valid, JSON.stringify(outcome).slice(0, 300)).toBe(true)
            if (!outcome.ok) {
              expect(outcome.error.code).not.toBe('INTERNAL')
              if (outcome.error.code === 'INVALID_INPUT') expect(state(app)).toBe(before)
            }
          }),
          SLOW.has(command) ? 25 : 300,
        )
      },
      fuzzTimeout(60_000),
    )
  }

  it(
    'unknown command names are refused as INVALID_INPUT',
    async () => {
      await check(
        'bridge unknown command names',
        fc.asyncProperty(fc.string({ maxLength: 80 }), payload, async (name, params) => {
          fc.pre(!(COMMAND_NAMES as string[]).includes(name))
          const before = state(app)
          const outcome = await app.invoke(name, params)
          expect(outcome.ok).toBe(false)
          if (!outcome.ok) expect(outcome.error.code).toBe('INVALID_INPUT')
          expect(state(app)).toBe(before)
        }),
        300,
      )
    },
    fuzzTimeout(20_000),
  )
})

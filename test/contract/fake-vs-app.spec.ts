import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppService, type AppService } from '../../src/app/app-service'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import { BridgeError } from '../../src/renderer/src/bridge/bridge-error'
import { FakeTickdeskApi } from '../../src/renderer/src/testing/fake-api'
import { COMMAND_NAMES, COMMANDS, type CommandName, type Snapshot } from '../../src/shared/bridge'
import { startDemoService } from '../../src/sim'
import { CONTRACT_CASES, UNLISTED, type Outcome } from './contract-cases'

/**
 * The renderer's component tests run against FakeTickdeskApi; the product runs against
 * AppService. Both go through every command of the bridge contract here, in the same order from
 * the same state (the fake starts from the app's own snapshot): valid params, invalid params,
 * unknown ids and duplicates. Each case must end the same way on both sides (ok, or the same
 * error code), with results of the contract's shape and the same essentials, and leave the same
 * lists, alerts and settings behind.
 */

interface Side {
  invoke(command: string, params: unknown): Promise<Outcome>
  snapshot(): Promise<Snapshot>
}

let app: AppService
let sides: { app: Side; fake: Side }

beforeAll(async () => {
  app = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-contract-')),
    env: {},
    secretStore: memorySecretStore(),
    demo: () => startDemoService({ seed: 8, tickIntervalMs: 1000 }),
    logFolder: { path: '/var/log/tickdesk', open: async () => false },
  })
  const fake = new FakeTickdeskApi(app.snapshot())
  fake.unknownSymbols.add(UNLISTED)
  const real: Side = {
    invoke: async (command, params) => {
      const outcome = await app.invoke(command, params)
      return outcome.ok
        ? { ok: true, result: outcome.result }
        : { ok: false, code: outcome.error.code }
    },
    snapshot: async () => app.snapshot(),
  }
  const inMemory: Side = {
    invoke: async (command, params) => {
      try {
        return { ok: true, result: await fake.invoke(command as CommandName, params as never) }
      } catch (e) {
        return { ok: false, code: e instanceof BridgeError ? e.code : `THREW ${String(e)}` }
      }
    },
    snapshot: async () => fake.state,
  }
  sides = { app: real, fake: inMemory }
})

afterAll(async () => {
  await app?.close()
})

/** What both sides must agree on after each case: the trader's lists, alerts and settings. */
function work(s: Snapshot): unknown {
  const active = s.watchlists.find((w) => w.id === s.activeWatchlistId)
  return {
    lists: s.watchlists.map((w) => [w.name, w.symbols]),
    active: active?.name ?? null,
    alerts: s.alerts.map((r) => [r.key, r.condition, r.enabled]),
    settings: s.settings,
  }
}

describe('the renderer’s fake host and the app service answer the bridge contract alike', () => {
  it('covers every command of the contract', () => {
    const covered = new Set(CONTRACT_CASES.map((c) => c.command))
    expect(COMMAND_NAMES.filter((name) => !covered.has(name))).toEqual([])
  })

  for (const c of CONTRACT_CASES) {
    it(`${c.command}: ${c.name}`, async () => {
      const outcomes: Outcome[] = []
      for (const side of [sides.app, sides.fake]) {
        const before = await side.snapshot()
        outcomes.push(await side.invoke(c.command, c.params(before)))
      }
      const [real, fake] = outcomes as [Outcome, Outcome]
      expect(fake.ok ? 'ok' : fake.code, 'fake').toBe(real.ok ? 'ok' : real.code)
      if (c.expect) expect(real.ok ? 'ok' : real.code, 'app').toBe(c.expect)
      if (real.ok && fake.ok && c.command in COMMANDS) {
        const shape = COMMANDS[c.command as CommandName].result
        expect(shape.safeParse(real.result).success, 'app result shape').toBe(true)
        expect(shape.safeParse(fake.result).success, 'fake result shape').toBe(true)
        if (c.view) expect(c.view(fake.result), 'essentials').toEqual(c.view(real.result))
      }
      expect(work(await sides.fake.snapshot())).toEqual(work(await sides.app.snapshot()))
    })
  }
})

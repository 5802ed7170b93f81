import { afterEach, expect } from 'vitest'
import type { SimServer } from '../../sim'
import type { BridgeEvent } from '../../shared/bridge'
import { createAppService, type AppService } from '../app-service'
import { memorySecretStore } from '../keys/memory-secret-store'

/**
 * The app against the simulator on loopback, with the simulator's Pro key in the environment as
 * a trader with a key runs it. Demo mode is refused: a spec that ends up there fails at start.
 */
export function appOnSim(sim: SimServer, dataDir: string): Promise<AppService> {
  return createAppService({
    dataDir,
    env: { TICKDESK_BASE_URL: sim.url, TICKDESK_API_KEY: sim.keys.pro, TICKDESK_PLAN: 'pro' },
    secretStore: memorySecretStore(),
    demo: () => Promise.reject(new Error('no demo here')),
  })
}

/**
 * The app and the simulator a spec runs: `const run = appOnSimRun()` at the top of a spec file,
 * `run.sim = …`, `run.app = …` in a test; after each test the app closes first, then the simulator.
 */
export function appOnSimRun(): { app: AppService | null; sim: SimServer | null } {
  const run: { app: AppService | null; sim: SimServer | null } = { app: null, sim: null }
  afterEach(async () => {
    await run.app?.close()
    await run.sim?.close()
    run.app = run.sim = null
  })
  return run
}

/** A command's result, or a thrown error carrying the outcome's error when it failed. */
export async function okResult<T>(
  promise: Promise<{ ok: boolean; result?: unknown; error?: unknown }>,
): Promise<T> {
  const outcome = await promise
  if (!outcome.ok) throw new Error(`command failed: ${JSON.stringify(outcome.error)}`)
  return outcome.result as T
}

/**
 * A once-alert on SOLUSDT above 400, crossed by pinning the simulator's price at 404: resolves to
 * the fire's id once the app has announced it (one fire, within 15 s).
 */
export async function fireSolAbove400(app: AppService, sim: SimServer): Promise<string> {
  const fired: BridgeEvent[] = []
  app.subscribe((e) => e.type === 'alertFired' && fired.push(e))
  const added = await app.invoke('addAlert', {
    key: 'crypto:SOLUSDT',
    condition: { kind: 'above', price: 400 },
  })
  expect(added.ok).toBe(true)
  sim.pinPrice('crypto', 'SOLUSDT', 404)
  await expect.poll(() => fired.length, { timeout: 15_000 }).toBe(1)
  return fired[0]?.type === 'alertFired' ? fired[0].alert.id : ''
}

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect } from 'vitest'
import { startSimulator, type SimServer } from '../../sim'
import { createAppService, type AppService } from '../app-service'
import type { AppServiceOptions } from '../host-api'
import { memorySecretStore } from '../keys/memory-secret-store'
import { listenElsewhere, type Receiver } from './elsewhere-receiver'
import { okResult } from './app-on-sim'

/**
 * The app, the simulator and the receiver on 127.0.0.2 a key-host spec runs: `const run =
 * keyHostRun()` at the top of a spec file; after each test all three close, the app first.
 */
export interface KeyHostRun {
  app: AppService | null
  sim: SimServer | null
  elsewhere: Receiver | null
}

export function keyHostRun(): KeyHostRun {
  const run: KeyHostRun = { app: null, sim: null, elsewhere: null }
  afterEach(async () => {
    await run.app?.close()
    await run.sim?.close()
    await run.elsewhere?.close()
    run.app = run.sim = run.elsewhere = null
  })
  return run
}

/** The app live on the simulator with its key entered for it, as a trader set it up. */
export async function liveOnSim(
  run: KeyHostRun,
  extra: Partial<AppServiceOptions> = {},
): Promise<AppService> {
  const sim = (run.sim = await startSimulator({ seed: 38, tickIntervalMs: 100 }))
  run.elsewhere = await listenElsewhere()
  const a = (run.app = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-keyhost-')),
    env: { TICKDESK_PLAN: 'pro' },
    secretStore: memorySecretStore(),
    demo: () => import('../../sim').then((s) => s.startDemoService()),
    ...extra,
  }))
  await okResult(a.invoke('updateSettings', { baseUrl: sim.url }))
  await okResult(a.invoke('setApiKey', { apiKey: sim.keys.pro }))
  await expect.poll(() => a.snapshot().status.state, { timeout: 10_000 }).toBe('live')
  return a
}

export const origin = (url: string): string => new URL(url).origin

import { afterEach } from 'vitest'
import type { SimServer } from '../../sim'
import { deriveStreamUrl, type EngineConfig } from '../engine/engine-config'
import type { MarketEngine } from '../engine/engine'

/** A Pro-plan engine's config against the embedded simulator on loopback (`extra` overrides). */
export function simEngineConfig(s: SimServer, extra: Partial<EngineConfig> = {}): EngineConfig {
  return {
    baseUrl: s.url,
    streamUrl: deriveStreamUrl(s.url),
    apiKey: s.keys.pro,
    plan: 'pro',
    rpm: 600,
    demo: false,
    ...extra,
  }
}

/**
 * The simulator and the engine a spec runs against it: `const run = simEngineRun()` at the top of
 * a spec file, `run.sim = …`, `run.engine = …` in a test. After each test the engine stops first
 * (its socket closes before the server does), then the simulator.
 */
export function simEngineRun(): { sim: SimServer | null; engine: MarketEngine | null } {
  const run: { sim: SimServer | null; engine: MarketEngine | null } = { sim: null, engine: null }
  afterEach(async () => {
    await run.engine?.stop()
    run.engine = null
    await run.sim?.close()
    run.sim = null
  })
  return run
}

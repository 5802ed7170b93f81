import type { Clock } from '../core/clock'
import { configFromEnv, resolveConfig, type EngineConfig } from '../core/engine-config'
import { MarketEngine } from '../core/engine'
import type { Logger } from '../core/log'
import { PLAN_LIMITS } from '../shared/market'
import type { Settings } from '../shared/settings'
import { startSimulator, type SimServer } from '../sim'

export interface DemoOptions {
  seed?: number
  tickIntervalMs?: number
}

export interface Feed {
  engine: MarketEngine
  config: EngineConfig
  /** The embedded simulator when in demo mode. */
  sim: SimServer | null
}

/**
 * Chooses the data source: the configured service when a base URL and a key are known (env beats
 * settings), otherwise demo mode on the embedded simulator with its demo key.
 */
export async function openFeed(opts: {
  env: NodeJS.ProcessEnv
  settings: Settings
  apiKey: string | null
  clock?: Clock
  logger?: Logger
  demo?: DemoOptions
  previousSim?: SimServer | null
}): Promise<Feed> {
  const fromEnv = configFromEnv(opts.env)
  const real = resolveConfig({
    baseUrl: fromEnv.baseUrl ?? (opts.settings.baseUrl || undefined),
    streamUrl: fromEnv.streamUrl,
    apiKey: fromEnv.apiKey ?? opts.apiKey ?? undefined,
    plan: fromEnv.plan ?? opts.settings.plan,
    rpm: fromEnv.rpm ?? opts.settings.rpmOverride ?? undefined,
  })
  if (real) {
    if (opts.previousSim) await opts.previousSim.close()
    return { engine: new MarketEngine(real, engineOptions(opts)), config: real, sim: null }
  }
  const sim =
    opts.previousSim ??
    (await startSimulator({
      seed: opts.demo?.seed ?? Date.now() % 100_000,
      tickIntervalMs: opts.demo?.tickIntervalMs ?? 500,
    }))
  const config: EngineConfig = {
    baseUrl: sim.url,
    streamUrl: sim.streamUrl,
    apiKey: sim.keys.pro,
    plan: 'pro',
    rpm: PLAN_LIMITS.pro.rpm,
    demo: true,
  }
  return { engine: new MarketEngine(config, engineOptions(opts)), config, sim }
}

function engineOptions(opts: { clock?: Clock; logger?: Logger }): {
  clock?: Clock
  logger?: Logger
} {
  return {
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
  }
}

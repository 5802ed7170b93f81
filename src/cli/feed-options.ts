import type { ParseArgsConfig } from 'node:util'
import { configFromEnv, resolveConfig, type EngineConfig } from '../core/engine-config'
import { PLAN_LIMITS, PlanSchema } from '../shared/market'
import { startSimulator, type SimServer } from '../sim'

/** Flags every networked command takes; each overrides its TICKDESK_* variable. */
export const FEED_OPTIONS = {
  'base-url': { type: 'string' },
  'stream-url': { type: 'string' },
  plan: { type: 'string' },
  rpm: { type: 'string' },
  'data-dir': { type: 'string' },
} as const satisfies ParseArgsConfig['options']

export const FEED_HELP = `  --base-url URL     service root (env TICKDESK_BASE_URL); none: demo mode on the embedded simulator
  --stream-url URL   stream URL (env TICKDESK_STREAM_URL; default derived from the base URL)
  --plan PLAN        free|growth|pro|enterprise, or trial|standard (env TICKDESK_PLAN; default free)
  --rpm N            per-key requests per minute if lower than the plan's (env TICKDESK_RPM)
  --data-dir DIR     settings and cache folder (env TICKDESK_DATA_DIR)
  The API key comes from TICKDESK_API_KEY (never a flag: flags show up in process lists).`

export class UsageError extends Error {}

export interface FeedChoice {
  config: EngineConfig
  sim: SimServer | null
}

/** Resolves the engine config from flags over env; no base URL or no key -> demo simulator. */
export async function chooseFeed(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Promise<FeedChoice> {
  let fromEnv
  try {
    fromEnv = configFromEnv(env)
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const plan = values.plan === undefined ? fromEnv.plan : PlanSchema.safeParse(values.plan).data
  if (values.plan !== undefined && plan === undefined)
    throw new UsageError('--plan must be free (trial), growth (standard), pro or enterprise')
  const rpm = values.rpm === undefined ? fromEnv.rpm : Number(values.rpm)
  if (rpm !== undefined && (!Number.isInteger(rpm) || rpm < 1))
    throw new UsageError('--rpm must be a positive whole number')
  const baseUrl = (values['base-url'] as string | undefined) ?? fromEnv.baseUrl
  if (baseUrl !== undefined && !/^https?:\/\//.test(baseUrl))
    throw new UsageError('--base-url must start with http:// or https://')
  const config = resolveConfig({
    baseUrl,
    streamUrl: (values['stream-url'] as string | undefined) ?? fromEnv.streamUrl,
    apiKey: fromEnv.apiKey,
    plan,
    rpm,
  })
  if (config) return { config, sim: null }
  if (baseUrl) throw new UsageError('TICKDESK_API_KEY is not set: the service needs an API key')
  const sim = await startSimulator({ seed: 1, tickIntervalMs: 250 })
  return {
    sim,
    config: {
      baseUrl: sim.url,
      streamUrl: sim.streamUrl,
      apiKey: sim.keys.pro,
      plan: 'pro',
      rpm: PLAN_LIMITS.pro.rpm,
      demo: true,
    },
  }
}

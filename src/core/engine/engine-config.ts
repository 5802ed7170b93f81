import { z } from 'zod'
import type { AuthScheme } from '../rest/auth-header'
import { PLAN_LIMITS, PlanSchema, type Market, type Plan } from '../../shared/markets/market'
import { parseStreamMarkets } from '../../shared/markets/stream-markets'
import { urlProblem, type UrlUse } from '../../shared/security/url-policy'

/** Where the engine connects and how much it may spend; from env, CLI flags or settings. */
export interface EngineConfig {
  baseUrl: string
  streamUrl: string
  apiKey: string
  plan: Plan
  /** Per-key RPM when the user knows it is lower than the plan's. */
  rpm: number
  demo: boolean
  /**
   * The word the stream knows a market by, when the user knows it (Settings, --stream-market,
   * TICKDESK_STREAM_MARKETS): beats anything learned (stream-market-names.ts).
   */
  streamMarkets?: Partial<Record<Market, string>>
  /** X-API-Key (default) or Authorization: Bearer (auth-header.ts). */
  auth?: AuthScheme
}

const STREAM_PATH = '/api/v1/market/stream'
const STREAM_SCHEME: Readonly<Record<string, string>> = { 'https:': 'wss:', 'http:': 'ws:' }

/**
 * Stream URL (spec: What the service does, the stream address): {base_url} with the scheme replaced
 * by ws(s) and the path /api/v1/market/stream. A base URL with a path prefix (a gateway, a proxy)
 * keeps it, as REST paths keep it when they are appended to the base. The scheme maps explicitly:
 * https to wss, http to ws (a local service); anything else is not a service URL.
 */
export function deriveStreamUrl(baseUrl: string): string {
  const url = new URL(baseUrl)
  const scheme = STREAM_SCHEME[url.protocol]
  if (scheme === undefined) throw new Error(`not an http(s) base URL: ${url.protocol}`)
  const prefix = url.pathname.replace(/\/+$/, '')
  return `${scheme}//${url.host}${prefix}${STREAM_PATH}`
}

// Re-exported for the CLI: the one parser lives in src/shared, where Settings reads it too.
export { parseStreamMarkets }

/** An address the URL policy allows for `use`; refused with the policy's reason. */
const policyUrl = (use: UrlUse): z.ZodType<string> =>
  z.string().superRefine((raw, ctx) => {
    const problem = urlProblem(raw, use)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })

const EnvSchema = z.object({
  TICKDESK_BASE_URL: policyUrl('service').optional(),
  TICKDESK_STREAM_URL: policyUrl('stream').optional(),
  TICKDESK_API_KEY: z.string().min(1).optional(),
  TICKDESK_PLAN: PlanSchema.optional(),
  TICKDESK_RPM: z.coerce.number().int().min(1).max(100_000).optional(),
  TICKDESK_STREAM_MARKETS: z.string().max(1000).optional(),
  TICKDESK_AUTH: z.enum(['x-api-key', 'bearer']).optional(),
})

export interface ConfigInput {
  baseUrl?: string | undefined
  streamUrl?: string | undefined
  apiKey?: string | undefined
  plan?: Plan | undefined
  rpm?: number | undefined
  streamMarkets?: Partial<Record<Market, string>> | undefined
  auth?: AuthScheme | undefined
}

/** Reads TICKDESK_* variables; empty strings count as unset. Throws a readable message on bad values. */
export function configFromEnv(env: NodeJS.ProcessEnv): ConfigInput {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(
      ([k, v]) => k.startsWith('TICKDESK_') && v !== undefined && v !== '',
    ),
  )
  const parsed = EnvSchema.safeParse(cleaned)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(
      `invalid ${String(issue?.path[0] ?? 'environment')}: ${issue?.message ?? 'bad value'}`,
    )
  }
  const e = parsed.data
  return {
    baseUrl: e.TICKDESK_BASE_URL,
    streamUrl: e.TICKDESK_STREAM_URL,
    apiKey: e.TICKDESK_API_KEY,
    plan: e.TICKDESK_PLAN,
    rpm: e.TICKDESK_RPM,
    streamMarkets: streamMarketsFromEnv(e.TICKDESK_STREAM_MARKETS),
    auth: e.TICKDESK_AUTH,
  }
}

function streamMarketsFromEnv(
  value: string | undefined,
): Partial<Record<Market, string>> | undefined {
  if (value === undefined) return undefined
  try {
    return parseStreamMarkets([value])
  } catch (e) {
    throw new Error(`invalid TICKDESK_STREAM_MARKETS: ${(e as Error).message}`)
  }
}

/** Resolves a complete config; null means no base URL or key: the caller starts demo mode. */
export function resolveConfig(input: ConfigInput): EngineConfig | null {
  if (!input.baseUrl || !input.apiKey) return null
  const plan = input.plan ?? 'free'
  return {
    baseUrl: input.baseUrl.replace(/\/+$/, ''),
    streamUrl: input.streamUrl ?? deriveStreamUrl(input.baseUrl),
    apiKey: input.apiKey,
    plan,
    rpm: input.rpm ?? PLAN_LIMITS[plan].rpm,
    demo: false,
    ...(input.streamMarkets ? { streamMarkets: input.streamMarkets } : {}),
    ...(input.auth ? { auth: input.auth } : {}),
  }
}

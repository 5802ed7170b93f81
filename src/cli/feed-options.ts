import type { ParseArgsConfig } from 'node:util'
import { parseStreamMarkets, type ConfigInput } from '../core/engine/engine-config'
import { PlanSchema } from '../shared/markets/market'
import { urlProblem, type UrlUse } from '../shared/url-policy'
import {
  chooseFeed,
  wantedConfig,
  type DemoStarter,
  type FeedChoice,
} from '../app/feed/feed-chooser'
import { usageError } from './command-args'
import { cliDemo } from './demo'
import type { CliIO } from './io'
import { systemClock } from '../core/clock'
import type { Logger } from '../core/log'
import { RateGovernor } from '../core/rest/rate-governor'
import { RestClient } from '../core/rest/rest-client'

/** Flags every networked command takes; each overrides its TICKDESK_* variable. */
export const FEED_OPTIONS = {
  'base-url': { type: 'string' },
  'stream-url': { type: 'string' },
  plan: { type: 'string' },
  rpm: { type: 'string' },
  'data-dir': { type: 'string' },
  'stream-market': { type: 'string' },
  auth: { type: 'string' },
} as const satisfies ParseArgsConfig['options']

export const FEED_HELP = `  --base-url URL     service root (env TICKDESK_BASE_URL); none: demo mode on the embedded simulator
  --stream-url URL   stream URL (env TICKDESK_STREAM_URL; default derived from the base URL)
  --plan PLAN        free|growth|pro|enterprise, or trial|standard (env TICKDESK_PLAN; default free)
  --rpm N            per-key requests per minute if lower than the plan's (env TICKDESK_RPM)
  --data-dir DIR     settings and cache folder (env TICKDESK_DATA_DIR)
  --stream-market M=NAME[,M=NAME]  the word the service's stream knows market M by, e.g.
                     fx=forex,crypto=spot (env TICKDESK_STREAM_MARKETS; default: learned)
  --auth SCHEME      x-api-key (default) or bearer: send the key as Authorization: Bearer
                     (env TICKDESK_AUTH)
  The API key comes from TICKDESK_API_KEY (never a flag: flags show up in process lists).`

export class UsageError extends Error {}

/** The feed flags, checked; absent ones are undefined so the environment decides. */
function feedFlags(values: Record<string, unknown>): ConfigInput {
  const plan = values.plan === undefined ? undefined : PlanSchema.safeParse(values.plan).data
  if (values.plan !== undefined && plan === undefined)
    throw new UsageError('--plan must be free (trial), growth (standard), pro or enterprise')
  const rpm = values.rpm === undefined ? undefined : Number(values.rpm)
  if (rpm !== undefined && (!Number.isInteger(rpm) || rpm < 1))
    throw new UsageError('--rpm must be a positive whole number')
  const baseUrl = policyFlag(values, 'base-url', 'service')
  const streamUrl = policyFlag(values, 'stream-url', 'stream')
  const pairs = values['stream-market'] as string | undefined
  let streamMarkets
  try {
    streamMarkets = pairs === undefined ? undefined : parseStreamMarkets([pairs])
  } catch (e) {
    throw new UsageError(`--stream-market: ${(e as Error).message}`)
  }
  const auth = values.auth
  if (auth !== undefined && auth !== 'x-api-key' && auth !== 'bearer')
    throw new UsageError('--auth must be x-api-key or bearer')
  return {
    baseUrl,
    streamUrl,
    plan,
    rpm,
    streamMarkets,
    auth,
  }
}

/** An address flag, held to the URL policy; the usage error says what it refuses and why. */
function policyFlag(
  values: Record<string, unknown>,
  flag: 'base-url' | 'stream-url',
  use: UrlUse,
): string | undefined {
  const raw = values[flag]
  if (raw === undefined) return undefined
  const problem = urlProblem(String(raw), use)
  if (problem !== null) throw new UsageError(`--${flag}: ${problem}`)
  return String(raw)
}

/**
 * The engine config from flags over env, chosen by the app's feed chooser; no base URL -> the
 * demo service the command passes in. A base URL without a key is a usage error here (the app
 * instead runs demo mode until the key is entered in Settings).
 */
export async function chooseCliFeed(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  startDemo: DemoStarter,
): Promise<FeedChoice> {
  const flags = feedFlags(values)
  let wanted: ConfigInput
  try {
    wanted = wantedConfig({ env, flags })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  if (wanted.baseUrl && !wanted.apiKey)
    throw new UsageError('TICKDESK_API_KEY is not set: the service needs an API key')
  return chooseFeed(wanted, startDemo)
}

/**
 * The feed preamble of every networked command, written once: the feed chosen from flags over
 * env (no base URL: the embedded simulator, seeded), or the usage error printed with the
 * command's help and its exit code returned. The demo banner is a message, not data: stderr, so
 * `--json` stdout stays pure. The caller closes `feed.demo` when done.
 */
export async function openCliFeed(
  command: string,
  values: Record<string, unknown>,
  io: CliIO,
  help: string,
  opts: { banner: boolean } = { banner: true },
): Promise<FeedChoice | number> {
  let feed: FeedChoice
  try {
    feed = await chooseCliFeed(values, io.env, cliDemo)
  } catch (e) {
    if (e instanceof UsageError) return usageError(command, e.message, help, io)
    throw e
  }
  if (opts.banner && feed.demo)
    io.stderr.write(`Demo mode: embedded simulator at ${feed.config.baseUrl}\n`)
  return feed
}

/**
 * The REST client a one-shot command calls the service with (candles, positions, the alert
 * symbol check): the feed's address, key and key scheme (X-API-Key or Bearer), inside the feed's
 * own budget. Written once so no command forgets part of the feed's config.
 */
export function cliRestClient(feed: FeedChoice, logger: Logger): RestClient {
  const { config } = feed
  return new RestClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    ...(config.auth ? { auth: config.auth } : {}),
    governor: new RateGovernor({ rpm: config.rpm, clock: systemClock, random: Math.random }),
    logger,
  })
}

import type { ParseArgsConfig } from 'node:util'
import { configFromEnv, parseStreamMarkets, type ConfigInput } from '../core/engine/engine-config'
import { resolveDataDir } from '../core/persistence/data-dir'
import { originWords, serviceOrigin } from '../app/keys/key-binding'
import { PlanSchema } from '../shared/markets/market'
import { urlProblem, type UrlUse } from '../shared/security/url-policy'
import {
  chooseFeed,
  wantedConfig,
  type DemoStarter,
  type FeedChoice,
} from '../app/feed/feed-chooser'
import { usageError } from './command-args'
import { cliDemo } from './demo'
import { savedService } from './saved-service'
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

/** The feed a command runs on, and which service that is and where it was found, in words. */
export interface CliFeedChoice extends FeedChoice {
  said: string
  /** The service came from the app's settings (or demo mode): the trader is told which. */
  implicit: boolean
}

/**
 * The engine config as the app would choose it: flags over TICKDESK_* variables over the app's
 * settings (saved-service.ts), with the key from TICKDESK_API_KEY or else the OS keychain's key
 * for that service; no base URL -> the demo service the command passes in. A base URL given by a
 * flag or the environment without a key is a usage error; the app's own base URL without a key
 * here runs demo mode, as the app does, and says why.
 */
export async function chooseCliFeed(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  startDemo: DemoStarter,
): Promise<CliFeedChoice> {
  const flags = feedFlags(values)
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : resolveDataDir(env)
  const app = await savedService(dataDir, env)
  let wanted: ConfigInput
  try {
    wanted = wantedConfig({ env, flags, saved: app.saved })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const named = flags.baseUrl ?? configFromEnv(env).baseUrl
  const fromApp = named === undefined
  // TICKDESK_API_KEY goes only to a service a flag or the environment names, never to one read
  // from settings.json, which a page can write (SECURITY.md: the key goes only where it was sent).
  if (fromApp) wanted = { ...wanted, apiKey: undefined }
  let keyFrom = 'TICKDESK_API_KEY'
  let demoWhy = ''
  if (wanted.baseUrl && !wanted.apiKey) {
    const found = await app.keyFor(wanted.baseUrl, serviceOrigin(named))
    const host = originWords(serviceOrigin(wanted.baseUrl))
    if (found.key !== null) {
      wanted = { ...wanted, apiKey: found.key }
      keyFrom = 'the OS keychain'
    } else if (!fromApp) {
      throw new UsageError(
        `TICKDESK_API_KEY is not set and ${found.why}: the service needs an API key`,
      )
    } else {
      demoWhy = ` (the app's service ${host} has no key here: ${found.why}; or name it with --base-url and set TICKDESK_API_KEY)`
      wanted = { ...wanted, baseUrl: undefined }
    }
  }
  const choice = await chooseFeed(wanted, startDemo)
  const said = choice.demo
    ? `Demo mode: embedded simulator at ${choice.config.baseUrl}${demoWhy}`
    : `Service: ${originWords(serviceOrigin(choice.config.baseUrl))} (${fromApp ? "the app's settings" : 'flags and environment'}; key from ${keyFrom})`
  return { ...choice, said, implicit: fromApp || choice.demo !== null }
}

/**
 * The feed preamble of every networked command, written once: the feed chosen from flags over
 * env over the app's settings (no base URL: the embedded simulator, seeded), or the usage error
 * printed with the command's help and its exit code returned. Which service it runs on, and from
 * where, is a message, not data: stderr, so `--json` stdout stays pure. The caller closes
 * `feed.demo` when done.
 */
export async function openCliFeed(
  command: string,
  values: Record<string, unknown>,
  io: CliIO,
  help: string,
  opts: { banner: boolean } = { banner: true },
): Promise<CliFeedChoice | number> {
  let feed: CliFeedChoice
  try {
    feed = await chooseCliFeed(values, io.env, cliDemo)
  } catch (e) {
    if (e instanceof UsageError) return usageError(command, e.message, help, io)
    throw e
  }
  // Said when the command found it itself; a service named by a flag or variable is known.
  if (opts.banner && feed.implicit) io.stderr.write(`${feed.said}\n`)
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

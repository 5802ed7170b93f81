import type { FeedSource } from '../../core/persistence/source-id'
import {
  configFromEnv,
  resolveConfig,
  type ConfigInput,
  type EngineConfig,
} from '../../core/engine/engine-config'
import { PLAN_LIMITS, type Plan } from '../../shared/markets/market'
import type { Settings } from '../../shared/settings'

/**
 * Demo mode's service, started by the host (hosts inject the demo feed: the README's Architecture): the
 * embedded simulator on loopback with the key of the plan it runs. src/sim's startDemoService
 * has this shape; the app and the CLI only ever see this interface.
 */
export interface DemoService {
  readonly url: string
  readonly streamUrl: string
  readonly apiKey: string
  readonly plan: Plan
  close(): Promise<void>
}

export type DemoStarter = () => Promise<DemoService>

export interface FeedChoice {
  config: EngineConfig
  /** The demo service the config points at; null for a configured service. */
  demo: DemoService | null
}

/**
 * What the user configured, field by field: command-line flags over TICKDESK_* variables over
 * what the app saved (its settings and the key from the keychain). Throws a readable message on a
 * bad TICKDESK_* value.
 */
export function wantedConfig(sources: {
  env: NodeJS.ProcessEnv
  flags?: ConfigInput
  saved?: ConfigInput
}): ConfigInput {
  const layers = [sources.flags ?? {}, configFromEnv(sources.env), sources.saved ?? {}]
  const first = <K extends keyof ConfigInput>(field: K): ConfigInput[K] =>
    layers.map((layer) => layer[field]).find((value) => value !== undefined)
  return {
    baseUrl: first('baseUrl'),
    streamUrl: first('streamUrl'),
    apiKey: first('apiKey'),
    plan: first('plan'),
    rpm: first('rpm'),
    streamMarkets: first('streamMarkets'),
    auth: first('auth'),
  }
}

/**
 * What the app saved: Settings' service fields (an empty base URL is none), the key's header
 * scheme included (X-API-Key or Authorization: Bearer). Never the key: the app adds the one
 * bound to the chosen base URL (KeyKeeper.keyFor).
 */
export function savedConfig(settings: Settings): ConfigInput {
  return {
    baseUrl: settings.baseUrl || undefined,
    auth: settings.auth,
    plan: settings.plan,
    rpm: settings.rpmOverride ?? undefined,
    streamMarkets:
      Object.keys(settings.streamMarkets).length > 0 ? settings.streamMarkets : undefined,
  }
}

/** Whether a settings change can change the feed's choice (a switch stops the old engine). */
export function choosesOtherFeed(before: Settings, after: Settings): boolean {
  return (
    before.baseUrl !== after.baseUrl ||
    before.plan !== after.plan ||
    before.rpmOverride !== after.rpmOverride ||
    before.auth !== after.auth ||
    JSON.stringify(before.streamMarkets) !== JSON.stringify(after.streamMarkets)
  )
}

/**
 * The one feed choice, for the app and the CLI alike (the README's Configuration: demo mode): the
 * configured service when a base URL and a key are known, otherwise demo mode on the host's demo
 * service. A demo service already `running` is kept while demo mode stays, and closed when a
 * configured service takes over.
 */
export async function chooseFeed(
  wanted: ConfigInput,
  startDemo: DemoStarter,
  running: DemoService | null = null,
): Promise<FeedChoice> {
  const config = resolveConfig(wanted)
  if (config) {
    await running?.close()
    return { config, demo: null }
  }
  const demo = running ?? (await startDemo())
  return {
    config: {
      baseUrl: demo.url,
      streamUrl: demo.streamUrl,
      apiKey: demo.apiKey,
      plan: demo.plan,
      rpm: PLAN_LIMITS[demo.plan].rpm,
      demo: true,
      ...(wanted.streamMarkets ? { streamMarkets: wanted.streamMarkets } : {}),
    },
    demo,
  }
}

/**
 * The data source a start would read cached prices and bars of, from the settings and the
 * environment alone: the service configured, else the demo. (A start without a key for the
 * service runs the demo; its cache is then read when that engine starts.)
 */
export function wantedSource(env: NodeJS.ProcessEnv, settings: Settings): FeedSource {
  const { baseUrl } = wantedConfig({ env, saved: savedConfig(settings) })
  return { demo: baseUrl === undefined, baseUrl: baseUrl ?? '' }
}

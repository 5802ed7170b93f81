import { savedConfig, wantedConfig } from '../app/feed/feed-chooser'
import {
  EMPTY_RING,
  keyForUrl,
  originWords,
  unpackRing,
  withKey,
  type KeyOrigin,
} from '../app/keys/key-binding'
import { createSecretStore, keychainProfile } from '../app/secrets/secret-store'
import type { ConfigInput } from '../core/engine/engine-config'
import { openDataStores } from '../core/persistence/stores'
import { serviceRef, type ServiceRef } from '../shared/alerts/alert-service'

/**
 * The service the app would run on, found the way the app finds it: the base URL, plan, rate and
 * stream market names saved in its settings.json, and the key the OS keychain keeps under the
 * profile (TICKDESK_PROFILE), given only for the service it was entered for (key-binding.ts).
 * Flags and TICKDESK_* variables still come first (feed-options.ts).
 */
export interface SavedService {
  /** What the app saved (no key: that is `keyFor`). */
  saved: ConfigInput
  /**
   * The keychain's key for `baseUrl`, or why there is none, in words. `trusted`: the origin a
   * flag or TICKDESK_BASE_URL named (null: none), the only one a key saved before keys were
   * bound may go to (as the app binds it, key-keeper.ts): never a base URL read from a file.
   */
  keyFor(
    baseUrl: string,
    trusted: KeyOrigin | null,
  ): Promise<{ key: string } | { key: null; why: string }>
}

export async function savedService(dataDir: string, env: NodeJS.ProcessEnv): Promise<SavedService> {
  const settings = (await openDataStores(dataDir).settings.peek()) ?? null
  const saved = settings === null ? {} : savedConfig(settings)
  const profile = keychainProfile(env)
  return {
    saved,
    async keyFor(baseUrl, trusted) {
      const store = await createSecretStore({
        env: {},
        dataDir,
        platform: process.platform,
        safeStorage: null,
        profile,
      })
      if (store.kind !== 'keychain')
        return { key: null, why: `no OS keychain answers here (profile ${profile})` }
      const stored = await store.get().catch(() => null)
      if (!stored) return { key: null, why: `the OS keychain holds no key for profile ${profile}` }
      const { ring, bare } = unpackRing(stored)
      let bound = ring
      if (bare !== null) {
        if (trusted === null)
          return {
            key: null,
            why: `the keychain's key (profile ${profile}) is not yet bound to a service: start the app once, or name the service with --base-url`,
          }
        bound = withKey(EMPTY_RING, trusted, bare)
      }
      const key = keyForUrl(bound, baseUrl)
      if (key !== null) return { key }
      const held = [...bound.keys.keys()].map(originWords).join(', ')
      return {
        key: null,
        why: `the keychain's key (profile ${profile}) was entered for ${held || 'no service'}`,
      }
    },
  }
}

/**
 * The service a rule added from the command line is made for: the one configured (--base-url,
 * TICKDESK_BASE_URL, else the app's settings; demo when none), whether or not a key is at hand,
 * under the profile. Only a process on that service judges the rule.
 */
export async function configuredService(
  baseUrlFlag: string | undefined,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<ServiceRef> {
  const { saved } = await savedService(dataDir, env)
  const { baseUrl } = wantedConfig({ env, flags: { baseUrl: baseUrlFlag }, saved })
  return serviceRef(baseUrl ?? null, keychainProfile(env))
}

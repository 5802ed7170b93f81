import { maskKey } from '../core/log'
import type { KeyInfo } from '../shared/settings'
import { errorText } from './error-text'
import type { SecretStore } from './host-api'
import type { NoticeBoard } from './notice-board'

/**
 * The API key (ARCHITECTURE: Secrets): kept in the host's secret store and in memory while the
 * app runs; TICKDESK_API_KEY overrides it. Where the store fails, the key still works for this
 * session and the trader is told it will not be remembered. Only KeyInfo (a masked suffix and
 * where it lives) ever leaves this module for the bridge.
 */
export class KeyKeeper {
  private key: string | null = null

  constructor(
    private readonly store: SecretStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly notices: Pick<NoticeBoard, 'add'>,
  ) {}

  async load(): Promise<void> {
    this.key = await this.store.get().catch(() => null)
    if (this.store.warning) this.notices.add('warning', 'KEYCHAIN_UNAVAILABLE', this.store.warning)
  }

  /** The key the user saved (the environment's, if any, is read by the feed chooser). */
  get saved(): string | null {
    return this.key
  }

  async set(apiKey: string): Promise<void> {
    this.key = apiKey
    await this.store.set(apiKey).catch((e: unknown) => {
      this.notices.add(
        'warning',
        'KEYCHAIN_UNAVAILABLE',
        `The key could not be saved in the keychain (${errorText(e)}); it is kept in memory until you quit.`,
      )
    })
  }

  async clear(): Promise<void> {
    this.key = null
    await this.store.clear().catch(() => undefined)
  }

  info(): KeyInfo {
    const envKey = this.env.TICKDESK_API_KEY
    const key = envKey || this.key
    return {
      hasKey: Boolean(key),
      masked: maskKey(key),
      storage: envKey ? 'env' : key ? this.store.kind : 'none',
      warning: this.store.warning,
    }
  }
}

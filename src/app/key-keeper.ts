import { maskKey } from '../core/log'
import type { KeyInfo } from '../shared/settings'
import { errorText } from './error-text'
import type { SecretStore } from './host-api'
import type { NoticeBoard } from './notice-board'

/** What a trader is told where no keychain keeps the key (the technical cause goes to details). */
export const KEY_NOT_KEPT =
  'Your key will be kept until you quit: this computer has no keychain Tickdesk can use.'

/**
 * The API key (ARCHITECTURE: Secrets): kept in the host's secret store and in memory while the
 * app runs; TICKDESK_API_KEY overrides it. Where the store fails, the key still works for this
 * session and the trader is told it will not be remembered, when it matters: as a key is saved,
 * and beside the key field. Not at start: in demo mode no key is in play. Only KeyInfo (a masked
 * suffix and where it lives) ever leaves this module for the bridge.
 */
export class KeyKeeper {
  private key: string | null = null
  /** Why the last save did not reach the store (it refused), if it did not. */
  private refused: string | null = null

  constructor(
    private readonly store: SecretStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly notices: Pick<NoticeBoard, 'add'>,
  ) {}

  async load(): Promise<void> {
    this.key = await this.store.get().catch(() => null)
  }

  /** The key the user saved (the environment's, if any, is read by the feed chooser). */
  get saved(): string | null {
    return this.key
  }

  async set(apiKey: string): Promise<void> {
    this.key = apiKey
    this.refused = null
    await this.store.set(apiKey).catch((e: unknown) => {
      this.refused = `The keychain refused to save the key (${errorText(e)}).`
    })
    const detail = this.detail()
    if (detail !== null) this.notices.add('warning', 'KEYCHAIN_UNAVAILABLE', KEY_NOT_KEPT, detail)
  }

  async clear(): Promise<void> {
    this.key = null
    this.refused = null
    await this.store.clear().catch(() => undefined)
  }

  info(): KeyInfo {
    const envKey = this.env.TICKDESK_API_KEY
    const key = envKey || this.key
    const detail = envKey ? null : this.detail()
    return {
      hasKey: Boolean(key),
      masked: maskKey(key),
      storage: envKey ? 'env' : key ? this.store.kind : 'none',
      warning: detail === null ? null : KEY_NOT_KEPT,
      warningDetail: detail,
    }
  }

  private detail(): string | null {
    return this.refused ?? this.store.warning
  }
}

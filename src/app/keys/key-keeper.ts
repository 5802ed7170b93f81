import { maskKey, registerSecret } from '../../core/log'
import type { KeyInfo } from '../../shared/settings'
import { errorText } from '../error-text'
import type { SecretStore } from '../host-api'
import {
  keyForUrl,
  originHost,
  packKey,
  serviceOrigin,
  unpackKey,
  type BoundKey,
} from './key-binding'
import type { NoticeBoard } from '../notice-board'

/** What a trader is told where no keychain keeps the key (the technical cause goes to details). */
export const KEY_NOT_KEPT =
  'Your key will be kept until you quit: this computer has no keychain Tickdesk can use.'

/** The notice while the key is withheld from a service it was not entered for. */
export const KEY_WITHHELD = 'KEY_HOST_CHANGED'

/**
 * The API key (ARCHITECTURE: Secrets): kept in the host's secret store and in memory while the
 * app runs; TICKDESK_API_KEY overrides it. Where the store fails, the key still works for this
 * session and the trader is told it will not be remembered, when it matters: as a key is saved,
 * and beside the key field. Not at start: in demo mode no key is in play. Only KeyInfo (a masked
 * suffix and where it lives) ever leaves this module for the bridge.
 *
 * The key is bound to the service it was entered for (key-binding.ts): keyFor(baseUrl) gives it
 * only for that origin, so a page that points the base URL elsewhere gets the live feed stopped, not
 * the key. The binding moves only with a fresh entry or confirm(), which hosts call from outside
 * the page (Electron's dialog, the CLI's flag). The environment's key is bound to the service in
 * use when the app started.
 */
export class KeyKeeper {
  private bound: BoundKey | null = null
  private envBound: BoundKey | null = null
  /** Why the last save did not reach the store (it refused), if it did not. */
  private refused: string | null = null

  constructor(
    private readonly store: SecretStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly notices: Pick<NoticeBoard, 'add' | 'withdraw'>,
  ) {}

  /** Reads the stored key; `baseUrl` is the service in use now (a bare, older key binds to it). */
  async load(baseUrl: string | undefined): Promise<void> {
    const envKey = this.env.TICKDESK_API_KEY
    if (envKey) {
      this.envBound = { key: envKey, origin: serviceOrigin(baseUrl) }
      return
    }
    const stored = await this.store.get().catch(() => null)
    if (!stored) return
    const read = unpackKey(stored)
    registerSecret(read.key)
    this.bound = read.legacy ? { key: read.key, origin: serviceOrigin(baseUrl) } : read
    // Bound once and for good, demo mode's "no service" too: a later start must not bind the key
    // to whatever base URL settings.json names by then.
    if (read.legacy) await this.persist()
  }

  /** The key to send to the service at `baseUrl`, or null: none, or entered for another one. */
  keyFor(baseUrl: string | undefined): string | null {
    return keyForUrl(this.envBound ?? this.bound, baseUrl)
  }

  /** The hosts of a key withheld from `baseUrl` (entered for `from`), or null if none is. */
  withheldFrom(baseUrl: string | undefined): { from: string; to: string } | null {
    const bound = this.envBound ?? this.bound
    const to = serviceOrigin(baseUrl)
    if (bound === null || to === null || bound.origin === to) return null
    return { from: originHost(bound.origin), to: originHost(to) }
  }

  /**
   * Tells the trader in the page why the live feed is stopped, or withdraws that once it is not.
   * Returns the words (the feed's status says the same), or null when the key is not withheld.
   */
  noteWithheld(baseUrl: string | undefined, howToConfirm: string): string | null {
    const change = this.withheldFrom(baseUrl)
    if (change === null) {
      this.notices.withdraw(KEY_WITHHELD)
      return null
    }
    const words = withheldWords(change, howToConfirm)
    this.notices.add('warning', KEY_WITHHELD, words)
    return words
  }

  async set(apiKey: string, baseUrl: string | undefined): Promise<void> {
    registerSecret(apiKey)
    this.bound = { key: apiKey, origin: serviceOrigin(baseUrl) }
    this.refused = null
    await this.persist()
    const detail = this.detail()
    if (detail !== null) this.notices.add('warning', 'KEYCHAIN_UNAVAILABLE', KEY_NOT_KEPT, detail)
  }

  /** Binds the kept key to `baseUrl`'s service: only on a confirmation from outside the page. */
  async confirm(baseUrl: string | undefined): Promise<void> {
    const origin = serviceOrigin(baseUrl)
    if (this.envBound) this.envBound = { ...this.envBound, origin }
    if (this.bound === null) return
    this.bound = { ...this.bound, origin }
    await this.persist()
  }

  async clear(): Promise<void> {
    this.bound = null
    this.refused = null
    await this.store.clear().catch(() => undefined)
  }

  info(baseUrl: string | undefined): KeyInfo {
    const envKey = this.env.TICKDESK_API_KEY
    const bound = this.envBound ?? this.bound
    const detail = envKey ? null : this.detail()
    const change = this.withheldFrom(baseUrl)
    return {
      hasKey: Boolean(bound),
      masked: maskKey(bound?.key),
      storage: envKey ? 'env' : bound ? this.store.kind : 'none',
      warning: detail === null ? null : KEY_NOT_KEPT,
      warningDetail: detail,
      forHost: bound && bound.origin !== null ? originHost(bound.origin) : null,
      withheld:
        change === null
          ? null
          : `Entered for ${change.from}: not sent to ${change.to} until you enter it again or confirm the change outside this page.`,
    }
  }

  private async persist(): Promise<void> {
    if (this.bound === null) return
    await this.store.set(packKey(this.bound)).catch((e: unknown) => {
      this.refused = `The keychain refused to save the key (${errorText(e)}).`
    })
  }

  private detail(): string | null {
    return this.refused ?? this.store.warning
  }
}

/** Why the live feed stopped and the two ways back, in a trader's words. */
export function withheldWords(change: { from: string; to: string }, howToConfirm: string): string {
  const back =
    change.from === originHost(null)
      ? 'or clear the base URL to go back to demo mode'
      : `or set the base URL back to ${change.from}`
  return `Live prices stopped: your API key was entered for ${change.from}, and the base URL now points at ${change.to}. Tickdesk does not send the key to an address it was not entered for, so nothing is being updated: rows keep their last real prices, marked stale. To go live, enter the key again in Settings for ${change.to}${howToConfirm}, ${back}.`
}

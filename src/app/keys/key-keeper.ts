import { TickdeskError } from '../../core/errors'
import { maskKey, registerSecret } from '../../core/log'
import type { KeyInfo } from '../../shared/settings'
import { errorText } from '../error-text'
import type { SecretStore } from '../host-api'
import {
  EMPTY_RING,
  keyForUrl,
  latestOrigin,
  movedKey,
  NO_SERVICE,
  originWords,
  packRing,
  serviceOrigin,
  unpackRing,
  withKey,
  withoutKey,
  type KeyOrigin,
  type KeyRing,
} from './key-binding'
import type { KeyMove } from './key-move'
import type { NoticeBoard } from '../notice-board'

/** What a trader is told where no keychain keeps the key (the technical cause goes to details). */
export const KEY_NOT_KEPT =
  'Your key will be kept until you quit: this computer has no keychain Tickdesk can use.'

/** The notice while the key is withheld from a service it was not entered for. */
export const KEY_WITHHELD = 'KEY_HOST_CHANGED'

/** Why the environment's key goes nowhere else. */
const ENV_KEY_BOUND =
  'TICKDESK_API_KEY is sent only to the service named by TICKDESK_BASE_URL (or --base-url)'

/** The key the environment gave, and the origin the environment or command line named for it. */
interface EnvKey {
  key: string
  origin: KeyOrigin | null
}

/**
 * The API keys: kept in the host's secret store, one per origin (key-binding.ts), and in memory
 * while the app runs. Only KeyInfo (a masked suffix, where it lives, the origin it is for) ever
 * leaves this module for the bridge.
 *
 * keyFor(baseUrl) gives a key only for the origin it was entered for, so a page that points the
 * base URL elsewhere gets the live feed stopped, not the key. A key moves to another origin only
 * through move(), which the app calls once the trader confirmed exactly that move outside the
 * page (key-move.ts). TICKDESK_API_KEY overrides the store and is bound to the origin the host
 * trusts (the environment's or the command line's base URL), never to one read from a file.
 *
 * Where the store fails, the key still works for this session and the trader is told it will not
 * be remembered: as a key is saved, and beside the key field (not at start: in demo mode no key
 * is in play).
 */
export class KeyKeeper {
  private ring: KeyRing = EMPTY_RING
  private env: EnvKey | null = null
  /** Why the last save did not reach the store (it refused), if it did not. */
  private refused: string | null = null

  constructor(
    private readonly store: SecretStore,
    private readonly envVars: NodeJS.ProcessEnv,
    private readonly notices: Pick<NoticeBoard, 'add' | 'withdraw'>,
  ) {}

  /**
   * Reads the stored keys. `trusted` is the service's origin as the environment or the command
   * line gave it (null: none): the environment's key binds to it, and so does, once, a bare key
   * saved before keys were bound.
   */
  async load(trusted: KeyOrigin | null): Promise<void> {
    const envKey = this.envVars.TICKDESK_API_KEY
    if (envKey) {
      registerSecret(envKey)
      this.env = { key: envKey, origin: trusted }
      return
    }
    const stored = await this.store.get().catch(() => null)
    if (!stored) return
    const { ring, bare } = unpackRing(stored)
    for (const key of ring.keys.values()) registerSecret(key)
    if (bare === null) {
      this.ring = ring
      return
    }
    registerSecret(bare)
    this.ring = withKey(EMPTY_RING, trusted ?? NO_SERVICE, bare)
    // Bound once and for good: a later start must not bind it to whatever a file names by then.
    await this.persist()
  }

  /** The key to send to the service at `baseUrl`, or null: none, or entered for another one. */
  keyFor(baseUrl: string | undefined): string | null {
    if (this.env !== null) {
      const origin = serviceOrigin(baseUrl)
      return origin !== null && origin === this.env.origin ? this.env.key : null
    }
    return keyForUrl(this.ring, baseUrl)
  }

  /**
   * The origins of a key withheld from `baseUrl`: entered for `from` (null: the environment's
   * key, bound to no origin), not sent to `to`. Null when nothing is withheld.
   */
  withheldFrom(baseUrl: string | undefined): { from: KeyOrigin | null; to: KeyOrigin } | null {
    const to = serviceOrigin(baseUrl)
    if (to === null || this.keyFor(baseUrl) !== null) return null
    if (this.env !== null) return { from: this.env.origin, to }
    const from = latestOrigin(this.ring)
    return from === null ? null : { from, to }
  }

  /** The move `baseUrl` would need for the kept key to go live there; null: none possible. */
  pendingMove(baseUrl: string | undefined): KeyMove | null {
    if (this.env !== null) return null
    const withheld = this.withheldFrom(baseUrl)
    return withheld === null || withheld.from === null
      ? null
      : { kind: 'move', from: withheld.from, to: withheld.to }
  }

  /**
   * The confirmation a key entered for `origin` needs: none when no other origin's key is kept
   * (a first key, or a new key for the same service) or when it is for no service at all.
   */
  entryNeeds(origin: KeyOrigin): KeyMove | null {
    if (origin === NO_SERVICE || this.ring.keys.has(origin)) return null
    const from = latestOrigin(this.ring)
    return from === null ? null : { kind: 'new-key', from, to: origin }
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

  /** Keeps `apiKey` for `origin` (the caller has any confirmation it needed); others stay. */
  async set(apiKey: string, origin: KeyOrigin): Promise<void> {
    if (this.env !== null)
      throw new TickdeskError({
        code: 'NOT_SUPPORTED',
        message: `${ENV_KEY_BOUND}, and overrides any key entered here: unset it to manage the key in Settings`,
      })
    registerSecret(apiKey)
    // A key for a service replaces a key held for none: that one was waiting for this entry.
    const ring = origin === NO_SERVICE ? this.ring : withoutKey(this.ring, NO_SERVICE)
    this.ring = withKey(ring, origin, apiKey)
    this.refused = null
    await this.persist()
    const detail = this.detail()
    if (detail !== null) this.notices.add('warning', 'KEYCHAIN_UNAVAILABLE', KEY_NOT_KEPT, detail)
  }

  /**
   * Moves the key exactly as confirmed; nothing when `from` holds no key any more (the
   * environment's key is in no ring, so it never moves).
   */
  async move(move: KeyMove): Promise<void> {
    const next = movedKey(this.ring, move.from, move.to)
    if (next === this.ring) return
    this.ring = next
    await this.persist()
  }

  /** Forgets the key for `baseUrl`'s origin only: a page cannot destroy another origin's key. */
  async clear(baseUrl: string | undefined): Promise<void> {
    const origin = serviceOrigin(baseUrl) ?? NO_SERVICE
    if (!this.ring.keys.has(origin)) return
    this.ring = withoutKey(this.ring, origin)
    this.refused = null
    await this.persist()
  }

  info(baseUrl: string | undefined): KeyInfo {
    const shown = this.shownKey(baseUrl)
    const detail = this.env !== null ? null : this.detail()
    const change = this.withheldFrom(baseUrl)
    return {
      hasKey: shown !== null,
      masked: maskKey(shown?.key),
      storage: this.env !== null ? 'env' : shown !== null ? this.store.kind : 'none',
      warning: detail === null ? null : KEY_NOT_KEPT,
      warningDetail: detail,
      forHost: shown?.origin ? originWords(shown.origin) : null,
      withheld: change === null ? null : withheldNote(change),
    }
  }

  /** The key Settings shows: the one for the base URL, else the one that would move there. */
  private shownKey(baseUrl: string | undefined): { key: string; origin: KeyOrigin | null } | null {
    if (this.env !== null) return this.env
    const origin = serviceOrigin(baseUrl) ?? NO_SERVICE
    const here = this.ring.keys.get(origin)
    if (here !== undefined) return { key: here, origin }
    const latest = latestOrigin(this.ring)
    return latest === null ? null : { key: this.ring.keys.get(latest)!, origin: latest }
  }

  private async persist(): Promise<void> {
    const write =
      this.ring.keys.size === 0 ? this.store.clear() : this.store.set(packRing(this.ring))
    await write.catch((e: unknown) => {
      this.refused = `The keychain refused to save the key (${errorText(e)}).`
    })
  }

  private detail(): string | null {
    return this.refused ?? this.store.warning
  }
}

/** The line beside the key field while the key is withheld. */
function withheldNote(change: { from: KeyOrigin | null; to: KeyOrigin }): string {
  if (change.from === null) return `${ENV_KEY_BOUND}: not sent to ${originWords(change.to)}.`
  return `Entered for ${originWords(change.from)}: not sent to ${originWords(change.to)} until you enter it again or confirm the change outside this page.`
}

/** Why the live feed stopped and the ways back, in a trader's words. */
export function withheldWords(
  change: { from: KeyOrigin | null; to: KeyOrigin },
  howToConfirm: string,
): string {
  const to = originWords(change.to)
  if (change.from === null)
    return `Live prices stopped: ${ENV_KEY_BOUND}, and the base URL in Settings points at ${to}. Set TICKDESK_BASE_URL to the service the key is for, or unset TICKDESK_API_KEY and enter the key in Settings.`
  const from = originWords(change.from)
  const back =
    change.from === NO_SERVICE
      ? 'or clear the base URL to go back to demo mode'
      : `or set the base URL back to ${from}`
  return `Live prices stopped: your API key was entered for ${from}, and the base URL now points at ${to}. Tickdesk does not send the key to an address it was not entered for, so nothing is being updated: rows keep their last real prices, marked stale. To go live, enter the key again in Settings for ${to}${howToConfirm}, ${back}.`
}

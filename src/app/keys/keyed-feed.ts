import type { FeedSource } from '../../core/persistence/source-id'
import { systemClock } from '../../core/clock'
import type { MarketEngine } from '../../core/engine/engine'
import type { EngineConfig } from '../../core/engine/engine-config'
import { silentLogger } from '../../core/log'
import type { FeedStatus } from '../../shared/status'
import type { KeyInfo, Settings } from '../../shared/settings'
import { savedConfig, wantedConfig, wantedSource } from '../feed/feed-chooser'
import { FeedSwitcher, type ActiveFeed } from '../feed/feed-switcher'
import type { AppServiceOptions } from '../host-api'
import { KEY_WITHHELD, KeyKeeper } from './key-keeper'
import type { NoticeBoard } from '../notice-board'

/**
 * The key's way to the engine (ARCHITECTURE: Secrets): the app service's key commands and every
 * feed switch go through here, so the engine only ever gets the key the KeyKeeper binds to the
 * base URL in effect (key-binding.ts). Moved out of app-service.ts; scripts/security-static.mjs
 * reads this file to hold the binding. It owns the one running engine (FeedSwitcher) and the
 * kept key (KeyKeeper).
 */
export class KeyedFeed {
  private readonly keys: KeyKeeper
  private readonly feeds: FeedSwitcher

  constructor(
    private readonly opts: Pick<
      AppServiceOptions,
      'secretStore' | 'env' | 'confirmKeyHost' | 'demo' | 'clock' | 'logger'
    > & {
      notices: Pick<NoticeBoard, 'add' | 'withdraw'>
      settings: () => Settings
      /** The stream's market words learned per service URL (stream-name-memory.ts). */
      nameMemory?: ConstructorParameters<typeof FeedSwitcher>[0]['nameMemory']
      /** Connects each new engine to the rest of the app; returns the disconnect. */
      attach: (engine: MarketEngine, config: EngineConfig) => () => void
      onStatus: (status: FeedStatus) => void
      /** After a key command (the page's settings show the key's new state). */
      onKeyChange: () => void
    },
  ) {
    this.keys = new KeyKeeper(opts.secretStore, opts.env, opts.notices)
    this.feeds = new FeedSwitcher({
      startDemo: opts.demo,
      clock: opts.clock ?? systemClock,
      logger: opts.logger ?? silentLogger,
      ...(opts.nameMemory ? { nameMemory: opts.nameMemory } : {}),
      attach: opts.attach,
    })
  }

  /** The engine running now and its config. */
  get current(): ActiveFeed {
    return this.feeds.current
  }

  /** Stops the engine (its quotes stay readable), then the demo service. */
  close(): Promise<void> {
    return this.feeds.close()
  }

  /** Reads the stored key, bound (if bare) to the service in use now. */
  loadKey(): Promise<void> {
    return this.keys.load(this.serviceUrl())
  }

  keyInfo(): KeyInfo {
    return this.keys.info(this.serviceUrl())
  }

  async setApiKey(apiKey: string): Promise<KeyInfo> {
    // A fresh entry is the trader's word: the key is for the service the base URL names now.
    await this.keys.set(apiKey, this.serviceUrl())
    // Demo mode and a held feed end once a key is known for the base URL; a running service
    // just takes it.
    if (this.feeds.current.config.demo || this.feeds.held) await this.switchFeed()
    else this.feeds.current.engine.setApiKey(apiKey)
    return this.keyChanged()
  }

  async clearApiKey(): Promise<KeyInfo> {
    await this.keys.clear()
    await this.switchFeed()
    return this.keyChanged()
  }

  /**
   * The host's confirmation, from outside the page (the CLI's `web --trust-base-url`): the kept
   * key is for the service the base URL names now.
   */
  async confirmKeyHost(): Promise<void> {
    await this.keys.confirm(this.serviceUrl())
    await this.switchFeed()
    this.keyChanged()
  }

  /**
   * The one place the engine is given a key: keyFor hands it out only for the service it was
   * entered for (key-binding.ts; the security scan holds this line). Elsewhere the live feed
   * stops (held-engine.ts: last real prices, marked stale; never demo prices in their place)
   * and the status and a notice say why and how to go live again.
   */
  async switchFeed(): Promise<void> {
    const wanted = wantedConfig({ env: this.opts.env, saved: savedConfig(this.opts.settings()) })
    const apiKey = this.keys.keyFor(wanted.baseUrl) ?? undefined
    const withheld = this.keys.noteWithheld(
      wanted.baseUrl,
      this.opts.confirmKeyHost ? ' (or confirm the change in the dialog)' : '',
    )
    if (withheld !== null) await this.feeds.hold(wanted, { code: KEY_WITHHELD, message: withheld })
    else await this.feeds.switchTo({ ...wanted, apiKey })
    this.opts.onStatus(this.feeds.current.engine.status())
  }

  /** Where the host can ask outside the page (Electron's dialog), a moved base URL may take the key. */
  async askToMoveKey(): Promise<void> {
    const confirm = this.opts.confirmKeyHost
    const change = this.keys.withheldFrom(this.serviceUrl())
    if (!confirm || change === null) return
    const yes = await confirm(change).catch(() => false)
    if (yes) await this.keys.confirm(this.serviceUrl())
  }

  private keyChanged(): KeyInfo {
    this.opts.onKeyChange()
    return this.keyInfo()
  }

  /** The source a start would read cached prices of: the service configured, else the demo. */
  wantedSource(): FeedSource {
    return wantedSource(this.opts.env, this.opts.settings())
  }

  /** The base URL in effect (TICKDESK_BASE_URL over the saved one). */
  private serviceUrl(): string | undefined {
    return wantedConfig({ env: this.opts.env, saved: savedConfig(this.opts.settings()) }).baseUrl
  }
}

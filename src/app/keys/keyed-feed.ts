import type { FeedSource } from '../../core/persistence/source-id'
import type { Clock } from '../../core/clock'
import type { MarketEngine } from '../../core/engine/engine'
import { configFromEnv, type EngineConfig } from '../../core/engine/engine-config'
import { TickdeskError } from '../../core/errors'
import type { Logger } from '../../core/log'
import type { FeedStatus } from '../../shared/status'
import type { KeyInfo, Settings } from '../../shared/settings'
import { urlProblem } from '../../shared/security/url-policy'
import { savedConfig, wantedConfig, wantedSource } from '../feed/feed-chooser'
import { FeedSwitcher, type ActiveFeed } from '../feed/feed-switcher'
import type { AppServiceOptions } from '../host-api'
import { NO_SERVICE, originWords, serviceOrigin, type KeyOrigin } from './key-binding'
import { KEY_WITHHELD, KeyKeeper } from './key-keeper'
import { KeyMoveAsks, type KeyMove } from './key-move'
import type { NoticeBoard } from '../notice-board'

/** A key entered from the page for another service, not confirmed outside the page. */
export const KEY_NOT_CONFIRMED = 'KEY_NOT_CONFIRMED'
/** The base URL in effect is one the URL policy refuses (a file edited by hand, an old one). */
export const BASE_URL_REFUSED = 'BASE_URL_REFUSED'

/**
 * The key's way to the engine: the app service's key commands and every feed switch go through
 * here, so the engine only ever gets the key the KeyKeeper binds to the base URL in effect
 * (key-binding.ts). It owns the one running engine (FeedSwitcher), the kept keys (KeyKeeper) and
 * the questions about moving a key (KeyMoveAsks), which the host asks outside the page and
 * which bind exactly the origins they showed.
 */
export class KeyedFeed {
  private readonly keys: KeyKeeper
  private readonly feeds: FeedSwitcher
  private readonly asks: KeyMoveAsks
  /** The last question's way to its answer, so close() and tests can wait for it. */
  private asking: Promise<void> = Promise.resolve()

  constructor(
    private readonly opts: Pick<
      AppServiceOptions,
      'secretStore' | 'env' | 'confirmKeyMove' | 'demo'
    > & {
      clock: Clock
      logger: Logger
      notices: Pick<NoticeBoard, 'add' | 'withdraw'>
      settings: () => Settings
      /** The stream's market words learned per service (stream-name-memory.ts). */
      nameMemory: NonNullable<ConstructorParameters<typeof FeedSwitcher>[0]['nameMemory']>
      /** Connects each new engine to the rest of the app; returns the disconnect. */
      attach: (engine: MarketEngine, config: EngineConfig) => () => void
      onStatus: (status: FeedStatus) => void
      /** After a key command (the page's settings show the key's new state). */
      onKeyChange: () => void
    },
  ) {
    this.keys = new KeyKeeper(opts.secretStore, opts.env, opts.notices)
    this.asks = new KeyMoveAsks(opts.confirmKeyMove?.confirm)
    this.feeds = new FeedSwitcher({
      startDemo: opts.demo,
      clock: opts.clock,
      logger: opts.logger,
      nameMemory: opts.nameMemory,
      attach: opts.attach,
    })
  }

  /** The engine running now and its config. */
  get current(): ActiveFeed {
    return this.feeds.current
  }

  /** Stops the engine (its quotes stay readable), then the demo service. */
  async close(): Promise<void> {
    await this.feeds.close()
  }

  /** Reads the stored keys; the environment's key binds to the environment's base URL only. */
  loadKey(): Promise<void> {
    return this.keys.load(this.trustedOrigin())
  }

  keyInfo(): KeyInfo {
    return this.keys.info(this.serviceUrl())
  }

  /**
   * A fresh entry: the key is for the service the base URL names now. While a key for another
   * service is kept, the trader confirms outside the page first (a page could otherwise put the
   * desk live on prices of its choosing); refused, nothing is kept and the command says why.
   */
  async setApiKey(apiKey: string): Promise<KeyInfo> {
    const origin = serviceOrigin(this.serviceUrl()) ?? NO_SERVICE
    const move = this.keys.entryNeeds(origin)
    if (move !== null && !(await this.asks.ask(move, () => this.originNow() === origin)))
      throw new TickdeskError({ code: KEY_NOT_CONFIRMED, message: this.notConfirmed(move) })
    await this.keys.set(apiKey, origin)
    const running = this.feeds.current
    // The service running takes the new key only when it is the origin the key was entered for
    // (a base URL moved by a command still switching the feed is not); demo mode and a held
    // feed end once a key is known.
    const sameService =
      !running.config.demo && !this.feeds.held && serviceOrigin(running.config.baseUrl) === origin
    if (sameService) running.engine.setApiKey(apiKey)
    else await this.switchFeed()
    return this.keyChanged()
  }

  /** Forgets the key of the service the base URL names now; other services' keys stay. */
  async clearApiKey(): Promise<KeyInfo> {
    await this.keys.clear(this.serviceUrl())
    await this.switchFeed()
    return this.keyChanged()
  }

  /** The base URL or the plan changed: a new feed, and the question a moved base URL raises. */
  async settingsChanged(): Promise<void> {
    await this.switchFeed()
    this.offerMove()
  }

  /** Resolves once the question asked last is answered and acted on (for close and tests). */
  async settled(): Promise<void> {
    let seen: Promise<void>
    do {
      seen = this.asking
      await seen
    } while (seen !== this.asking)
  }

  /**
   * The one place the engine is given a key: keyFor hands it out only for the service it was
   * entered for (key-binding.ts). Elsewhere the live feed stops (held-engine.ts: last real
   * prices, marked stale; never demo prices in their place) and the status and a notice say why
   * and how to go live again; so it does for a base URL the URL policy refuses.
   */
  async switchFeed(): Promise<void> {
    const wanted = wantedConfig({ env: this.opts.env, saved: savedConfig(this.opts.settings()) })
    const refused = wanted.baseUrl === undefined ? null : urlProblem(wanted.baseUrl, 'service')
    const apiKey = this.keys.keyFor(wanted.baseUrl) ?? undefined
    const withheld =
      refused === null ? this.keys.noteWithheld(wanted.baseUrl, this.confirmHint()) : null
    if (refused !== null) {
      const message = `Live prices stopped: ${refused}. Change it in Settings.`
      this.opts.notices.add('error', BASE_URL_REFUSED, message)
      await this.feeds.hold(wanted, { code: BASE_URL_REFUSED, message })
    } else {
      this.opts.notices.withdraw(BASE_URL_REFUSED)
      if (withheld !== null)
        await this.feeds.hold(wanted, { code: KEY_WITHHELD, message: withheld })
      else await this.feeds.switchTo({ ...wanted, apiKey })
    }
    this.opts.onStatus(this.feeds.current.engine.status())
  }

  /**
   * Where the host can ask outside the page, asks whether the kept key may go to the origin the
   * base URL names now; a yes moves exactly the key and origin the question showed, then the
   * feed follows the base URL (live there only if it still points at that origin).
   */
  offerMove(): void {
    const move = this.keys.pendingMove(this.serviceUrl())
    if (move === null || !this.asks.canAsk) return
    const stillPending = (): boolean => {
      const now = this.keys.pendingMove(this.serviceUrl())
      return now !== null && now.from === move.from && now.to === move.to
    }
    const answered = this.asks.ask(move, stillPending).then(async (yes) => {
      if (!yes) return
      await this.keys.move(move)
      await this.switchFeed()
      this.keyChanged()
      // The page may have moved the base URL on while the question was open: that is a question
      // of its own, about the origins as they are now.
      this.offerMove()
    })
    this.asking = Promise.all([this.asking, answered]).then(() => undefined)
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

  private originNow(): KeyOrigin {
    return serviceOrigin(this.serviceUrl()) ?? NO_SERVICE
  }

  /**
   * The origin given outside any page: the environment's base URL (the host's flags set it). A
   * bad TICKDESK_* value throws here as it does at every feed choice: the host says which.
   */
  private trustedOrigin(): KeyOrigin | null {
    return serviceOrigin(configFromEnv(this.opts.env).baseUrl)
  }

  private confirmHint(): string {
    const where = this.opts.confirmKeyMove?.where
    return where ? ` (or confirm the change ${where})` : ''
  }

  private notConfirmed(move: KeyMove): string {
    const to = originWords(move.to)
    const from = originWords(move.from)
    const why = this.asks.wasRefused(move)
      ? `you did not confirm a key for ${to}`
      : `a key for ${to} needs your confirmation outside this page`
    const where = this.opts.confirmKeyMove?.where
    return `The key was not saved: Tickdesk keeps your key for ${from}, and ${why}${where ? ` (${where})` : ''}. Set the base URL back to ${from} to use that key.`
  }
}

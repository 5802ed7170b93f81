import { feedSourceId, type FeedSource } from '../../core/persistence/source-id'
import type { Clock } from '../../core/clock'
import type { ConfigInput, EngineConfig } from '../../core/engine/engine-config'
import { MarketEngine } from '../../core/engine/engine'
import type { StreamNameMemory } from '../../core/stream/stream-market-names'
import type { Logger } from '../../core/log'
import { chooseFeed, type DemoService, type DemoStarter } from './feed-chooser'
import { heldConfig, HeldEngine, type HeldReason } from './held-engine'

/** The engine that runs now and where it connects. */
export interface ActiveFeed {
  readonly engine: MarketEngine
  readonly config: EngineConfig
}

interface Running extends ActiveFeed {
  readonly demo: DemoService | null
  readonly detach: () => void
  readonly names: StreamNameMemory | undefined
}

/**
 * The one running engine (exactly one WebSocket to the service per app). A switch
 * (key entered or cleared, base URL or plan changed) stops the old engine before the new one
 * starts and hands the new one the old one's quotes, so rows keep their last prices; a demo
 * service stays up while demo mode does and closes when a configured service takes over.
 * `attach` connects each new engine to the rest of the app and returns the disconnect.
 * hold() is the switch to no feed at all (the key is withheld: held-engine.ts): the demo service
 * closes and the rows keep the last real prices, never simulated ones.
 *
 *   none --switchTo--> running --switchTo--> running (a new engine) --close--> closed
 *   none|running --hold--> held (never started) --switchTo--> running
 */
export class FeedSwitcher {
  private running: Running | null = null

  constructor(
    private readonly opts: {
      startDemo: DemoStarter
      clock: Clock
      logger: Logger
      attach: (engine: MarketEngine, config: EngineConfig) => () => void
      /** The stream market names learned on a service, kept in the data folder. */
      nameMemory?: (source: FeedSource) => Promise<StreamNameMemory>
    },
  ) {}

  get current(): ActiveFeed {
    if (this.running === null) throw new Error('no feed yet: switchTo() first')
    return this.running
  }

  /** Whether the engine running now is a held one (no key may go to its service). */
  get held(): boolean {
    return this.running?.engine instanceof HeldEngine
  }

  async switchTo(wanted: ConfigInput): Promise<void> {
    const previous = await this.stopRunning()
    const { config, demo } = await chooseFeed(wanted, this.opts.startDemo, previous?.demo ?? null)
    const nameMemory = await this.opts.nameMemory?.(config)
    const engine = new MarketEngine(config, {
      clock: this.opts.clock,
      logger: this.opts.logger,
      ...(nameMemory ? { nameMemory } : {}),
    })
    // The rows keep their prices across a restart of the same source's engine (a key or plan
    // change); another source's cached prices are read from the data folder when it is attached
    // (save-scheduler.ts): the demo's simulated prices never stand in a live service's rows.
    if (previous && feedSourceId(previous.config) === feedSourceId(config))
      engine.seedFromCache(previous.engine.quotes.all())
    this.running = {
      engine,
      config,
      demo,
      detach: this.opts.attach(engine, config),
      names: nameMemory,
    }
    engine.start()
  }

  /**
   * Stops the feed for `why` without starting another: no demo prices in place of live ones.
   * The rows keep the last prices a real service sent (a demo engine's are not carried over).
   */
  async hold(wanted: ConfigInput, why: HeldReason): Promise<void> {
    const config = heldConfig(wanted)
    if (config === null) throw new Error('hold() needs the base URL of the service held')
    const previous = await this.stopRunning()
    await previous?.demo?.close()
    const engine = new HeldEngine(config, why, { clock: this.opts.clock, logger: this.opts.logger })
    if (previous && !previous.config.demo) engine.seedFromCache(previous.engine.quotes.all())
    this.running = {
      engine,
      config,
      demo: null,
      detach: this.opts.attach(engine, config),
      names: undefined,
    }
  }

  /** Disconnects and stops the engine running now, and returns it (its demo service stays up). */
  private async stopRunning(): Promise<Running | null> {
    const previous = this.running
    if (previous) {
      previous.detach()
      await previous.engine.stop()
      await previous.names?.settled?.()
    }
    return previous
  }

  /**
   * Stops the engine, then disconnects it (its last status, stopped, still reaches the app and the
   * log), then the demo service. The stopped engine's quotes and bars stay readable for the saves.
   */
  async close(): Promise<void> {
    const running = this.running
    if (running === null) return
    await running.engine.stop()
    running.detach()
    // A name learned in the last moments is still being written: the folder is ours until then.
    await running.names?.settled?.()
    await running.demo?.close()
  }
}

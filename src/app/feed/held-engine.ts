import { MarketEngine, type EngineOptions } from '../../core/engine/engine'
import { resolveConfig, type ConfigInput, type EngineConfig } from '../../core/engine/engine-config'
import { TickdeskError } from '../../core/errors'
import type { FeedStatus } from '../../shared/status'

/** Why nothing is sent: the code the status and every refused request carry, and the words. */
export interface HeldReason {
  code: string
  message: string
}

/**
 * The feed while the API key is withheld from the base URL in effect (key-binding.ts): stopped,
 * not demo. A trader who expects live prices must never be shown simulated ones in their place,
 * so this engine is never started: it opens no socket and sends no request, keeps the rows' last
 * real prices (seeded, so marked stale) and answers every status with the reason and the fix.
 * A chart, a symbol check or a connection test is refused with the same words.
 */
export class HeldEngine extends MarketEngine {
  constructor(
    config: EngineConfig,
    private readonly reason: HeldReason,
    options: EngineOptions = {},
  ) {
    super(config, options)
  }

  /** Never starts: the key is withheld, and without it nothing goes to this service. */
  override start(): void {}

  override setApiKey(): void {}

  override status(): FeedStatus {
    return this.held(super.status())
  }

  override onStatus(listener: (status: FeedStatus) => void): () => void {
    return super.onStatus((status) => listener(this.held(status)))
  }

  override getCandles(): ReturnType<MarketEngine['getCandles']> {
    return Promise.reject(this.refusal())
  }

  override sparkHistory(): ReturnType<MarketEngine['sparkHistory']> {
    return Promise.reject(this.refusal())
  }

  override backfillBars(): void {}

  override testConnection(): ReturnType<MarketEngine['testConnection']> {
    return Promise.reject(this.refusal())
  }

  /** No verdict on a symbol now, in the words of the stop (symbol-probe.ts: unchecked). */
  override readonly probeSymbol: MarketEngine['probeSymbol'] = () =>
    Promise.resolve({ verdict: 'unchecked', ...this.reason })

  private held(status: FeedStatus): FeedStatus {
    const { code, message } = this.reason
    return { ...status, state: 'stopped', code, message, retryAt: null, demo: false }
  }

  private refusal(): TickdeskError {
    return new TickdeskError({ code: this.reason.code, message: this.reason.message })
  }
}

/**
 * The held engine's config: the service the base URL names, with no key at all (it is the one
 * thing this engine must not have). Null when `wanted` names no service.
 */
export function heldConfig(wanted: ConfigInput): EngineConfig | null {
  const config = resolveConfig({ ...wanted, apiKey: 'none' })
  return config === null ? null : { ...config, apiKey: '' }
}

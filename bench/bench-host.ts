import type { AppHostApi, TrayQuote } from '../src/app/host-api'
import {
  SnapshotSchema,
  type BridgeEvent,
  type CommandOutcome,
  type Snapshot,
} from '../src/shared/bridge'
import type { FiredAlert } from '../src/shared/alerts/alert'
import { SettingsSchema } from '../src/shared/settings'
import { VERSION } from '../src/shared/version'
import { SyntheticFeed } from './synthetic-feed'

/**
 * A bench-only AppHostApi for startWebHost: one 200-symbol watchlist whose quotes come from a
 * SyntheticFeed (real QuoteStore + QuoteBatcher) at a fixed tick rate. Commands other than the
 * snapshot and visibility answer NOT_SUPPORTED: the render benchmark exercises the quote path.
 */
export class BenchHost implements AppHostApi {
  readonly feed: SyntheticFeed
  private readonly listeners = new Set<(e: BridgeEvent) => void>()

  constructor(opts: { symbols: number; ticksPerSec: number }) {
    this.feed = new SyntheticFeed({
      symbols: opts.symbols,
      ticksPerSec: opts.ticksPerSec,
      onBatch: (frame) => this.emit({ type: 'quotes', frame }),
    })
  }

  snapshot(): Snapshot {
    return SnapshotSchema.parse({
      watchlists: [{ id: 'bench', name: 'Bench', symbols: this.feed.keys }],
      activeWatchlistId: 'bench',
      quotes: this.feed.store.all(),
      symbolStatuses: [],
      status: {
        state: 'live',
        code: null,
        message: '',
        retryAt: null,
        stream: { state: 'open', symbols: 200, cap: 200 },
        budget: { usedLastMinute: 0, perMinute: 2700, callsToday: 0 },
        plan: 'enterprise',
        demo: false,
      },
      alerts: [],
      alertStates: [],
      alertHistory: [],
      settings: SettingsSchema.parse({}),
      keyInfo: { hasKey: true, masked: '••••ench', storage: 'memory', warning: null },
      notices: [],
      version: VERSION,
    })
  }

  async invoke(command: string): Promise<CommandOutcome<unknown>> {
    if (command === 'getSnapshot') return { ok: true, result: this.snapshot() }
    if (command === 'setVisibleSymbols') return { ok: true, result: null }
    return { ok: false, error: { code: 'NOT_SUPPORTED', message: `bench host: ${command}` } }
  }

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  onAlertFired(_listener: (alert: FiredAlert) => void): () => void {
    return () => undefined
  }

  trayQuotes(): TrayQuote[] {
    return []
  }

  cachedDesk(): null {
    return null
  }

  notifyResume(): void {}
  announceOwedAlerts(): void {}

  async close(): Promise<void> {
    this.feed.close()
  }

  private emit(event: BridgeEvent): void {
    for (const l of this.listeners) l(event)
  }
}

import { PLAN_LIMITS, symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Bar, Interval, Quote, SymbolStatus } from '../../shared/quote'
import type { FeedStatus } from '../../shared/status'
import type { DoctorReport } from '../../shared/bridge'
import { liveStream } from '../doctor/connection-test'
import { testConnection } from './engine-diagnostics'
import { CandleBuilder } from '../bars/candle-builder'
import { systemClock, type Clock } from '../clock'
import type { EngineConfig } from './engine-config'
import { FeedPlanner, PRIORITY } from '../feed/feed-planner'
import { registerSecret, silentLogger, type Logger } from '../log'
import { SymbolStatusBook } from '../quotes/symbol-statuses'
import type { BarNeed } from '../bars/bar-backfill'
import { EngineBars } from './engine-bars'
import { requireSymbolRef } from '../quotes/symbol-input'
import type { QuotePoller } from '../poll/quote-poller'
import { QuoteStore } from '../quotes/quote-store'
import { QuoteIngest, type QuoteListener } from '../quotes/quote-ingest'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { RateGovernor } from '../rest/rate-governor'
import { RestClient } from '../rest/rest-client'
import { StaleSweep } from './stale-sweep'
import type { SilentSymbolCheck } from './silent-symbol-check'
import type { StreamClient } from '../stream/stream-client'
import { createEngineStream, createStreamNames } from './engine-stream'
import { createEnginePoller, createSilentCheck } from './engine-polls'
import { EngineStatus, type StatusFacts } from './engine-status'
import { createStreamTrust, gateMarkets } from './engine-trust'
import { FeedPlanApplier } from '../feed/feed-plan-applier'
import type { StreamMarketNames, StreamNameMemory } from '../stream/stream-market-names'
import type { StreamTrust, TrustReport } from '../trust/stream-trust'
import { watchForSleep } from './sleep-detector'
import { WatchedSymbols } from './watched-symbols'
import { probeSymbol } from '../rest/symbol-probe'
import type { Random } from '../random'

export { PRIORITY }
type Listener<T> = (value: T) => void

export interface EngineOptions {
  clock?: Clock
  random?: Random
  logger?: Logger
  /** Stream market names and field readings that worked on this service before, and where to keep new ones. */
  nameMemory?: StreamNameMemory
}

/**
 * The market-data engine: one RateGovernor (shared REST + handshake budget), one StreamClient
 * (the app's only WebSocket), a QuotePoller for everything not streamed, and the QuoteStore.
 * The FeedPlanner decides who streams; the stream's market names are learned
 * (stream-market-names.ts) and its prices trusted only once they agree with REST (core/trust);
 * this class wires the parts: the socket's events (engine-stream.ts), the poller's answers
 * (engine-polls.ts), the trust (engine-trust.ts) and the FeedStatus (engine-status.ts).
 */
export class MarketEngine {
  readonly quotes: QuoteStore
  readonly candles = new CandleBuilder()
  /** Charts', sparklines' and moving averages' bars (engine-bars.ts). */
  private readonly bars: EngineBars
  private readonly clock: Clock
  private readonly logger: Logger
  private readonly governor: RateGovernor
  private readonly rest: RestClient
  private readonly poller: QuotePoller
  private readonly planner: FeedPlanner
  /** What each market is called on the stream, learned (stream-market-names.ts). */
  readonly streamNames: StreamMarketNames
  /** Whether each market's stream prices are trusted (core/trust). */
  private readonly trust: StreamTrust
  private readonly stream: StreamClient
  /** Puts the planner's plan into effect (feed-plan-applier.ts). */
  private readonly feedPlan: FeedPlanApplier
  private config: EngineConfig
  private readonly watched = new WatchedSymbols()
  private readonly statuses = new SymbolStatusBook((key) => this.watched.has(key))
  /** Every quote update, streamed or polled, lands here (quote-ingest.ts: the hot path). */
  private readonly ingest: QuoteIngest
  private readonly feedStatus: EngineStatus
  private readonly resumeListeners = new Set<Listener<number>>()
  private started = false
  private readonly sweep: StaleSweep
  private readonly silentCheck: SilentSymbolCheck
  private stopSleepWatch: (() => void) | null = null

  constructor(config: EngineConfig, options: EngineOptions = {}) {
    this.config = config
    this.clock = options.clock ?? systemClock
    this.logger = options.logger ?? silentLogger
    const random = options.random ?? Math.random
    registerSecret(config.apiKey)
    this.quotes = new QuoteStore(this.clock)
    this.ingest = new QuoteIngest(this.quotes, this.candles, this.statuses)
    this.feedStatus = new EngineStatus({
      ...{ plan: config.plan, demo: config.demo, logger: this.logger },
      facts: () => this.statusFacts(),
      offline: () => this.quotes.markStale('all'),
    })
    this.sweep = new StaleSweep(this.clock, this.quotes, () => this.feedStatus.changed())
    this.governor = new RateGovernor({ rpm: config.rpm, clock: this.clock, random })
    this.rest = new RestClient({
      ...{ baseUrl: config.baseUrl, apiKey: config.apiKey, governor: this.governor },
      ...{ clock: this.clock, logger: this.logger },
      ...(config.auth ? { auth: config.auth } : {}),
    })
    this.planner = new FeedPlanner({ cap: PLAN_LIMITS[config.plan].wsSymbols, clock: this.clock })
    this.streamNames = createStreamNames({
      ...{ clock: this.clock, overrides: config.streamMarkets, memory: options.nameMemory },
      planner: this.planner,
      stream: () => this.stream,
      changed: () => this.gatesChanged(),
    })
    this.trust = createStreamTrust({
      ...{ clock: this.clock, logger: this.logger, memory: options.nameMemory },
      ...{ planner: this.planner, ingest: this.ingest },
      poller: () => this.poller,
      rpm: () => this.governor.snapshot().learnedRpm ?? this.config.rpm,
      changed: () => this.gatesChanged(),
    })
    this.poller = createEnginePoller({
      ...{ client: this.rest, governor: this.governor, clock: this.clock, quotes: this.quotes },
      ingest: this.ingest,
      trust: () => this.trust,
      silentCheck: () => this.silentCheck,
      onSymbolStatus: (s) => this.statuses.set(s),
      onError: (e) => this.feedStatus.noteError(e),
      onAnswered: () => this.feedStatus.answered(),
      onServiceTag: (market, tag) => this.streamNames.serviceTag(market, tag),
    })
    this.bars = new EngineBars({
      ...{ candles: this.candles, rest: this.rest, clock: this.clock },
      budget: () => this.governor.snapshot(),
    })
    this.stream = this.createStream(random)
    this.feedPlan = new FeedPlanApplier({
      ...{ planner: this.planner, watched: this.watched, stream: this.stream },
      poller: this.poller,
      onApplied: () => this.feedStatus.changed(),
    })
    this.silentCheck = createSilentCheck({
      ...{ clock: this.clock, logger: this.logger, quotes: this.quotes, planner: this.planner },
      ...{ stream: this.stream, streamNames: this.streamNames, trust: this.trust },
      ...{ feedPlan: this.feedPlan, poller: this.poller },
    })
    this.governor.onChange(() => this.feedStatus.changed())
    this.planner.onChange(() => this.feedPlan.replan())
  }

  start(): void {
    if (this.started) return
    this.started = true
    this.poller.start()
    this.stream.start()
    this.stopSleepWatch = watchForSleep(this.clock, (gapMs) => this.checkHealth(gapMs))
    this.sweep.start()
    this.silentCheck.start()
    this.trust.start()
    this.feedPlan.replan()
    this.feedStatus.changed()
  }

  async stop(): Promise<void> {
    this.started = false
    this.poller.stop()
    this.bars.stop()
    this.stopSleepWatch?.()
    this.sweep.stop()
    this.silentCheck.stop()
    this.trust.stop()
    const namesSaved = this.streamNames.dispose()
    await Promise.all([this.stream.stop(), namesSaved])
    this.feedStatus.changed()
  }

  /** Ref-counted: two panels on one symbol cost one subscription. Returns the unsubscribe. */
  watch(key: SymbolKey, priority: number = PRIORITY.other): () => void {
    const ref = requireSymbolRef(key)
    const canonical = symbolKey(ref.market, ref.symbol)
    this.watched.add(canonical, priority)
    this.feedPlan.replanSoon()
    let released = false
    return () => {
      if (released) return
      released = true
      if (!this.watched.release(canonical)) return
      this.statuses.delete(canonical)
      this.feedPlan.forget(canonical)
      this.poller.forget(canonical)
      this.feedPlan.replanSoon()
    }
  }

  /** Sets stream priorities (visible, alerted, pinned) for watched symbols; others fall back to 0. */
  setPriorities(priorities: ReadonlyMap<SymbolKey, number>): void {
    if (this.watched.setPriorities(priorities, PRIORITY.other)) this.feedPlan.replanSoon()
  }

  /**
   * Watched symbols that only help (the FX pairs converting the trader's lots): polled once a
   * minute when they do not stream, so the budget stays with the rows.
   */
  setSlow(keys: readonly SymbolKey[]): void {
    this.poller.setSlow(keys)
  }

  status(): FeedStatus {
    return this.feedStatus.current()
  }

  symbolStatuses(): SymbolStatus[] {
    return this.statuses.all()
  }

  /** Each market's stream trust: state, reading, the last comparison and its samples. */
  trustReport(): TrustReport[] {
    return this.trust.report()
  }

  getCandles(key: SymbolKey, interval: Interval, limit: number): Promise<Bar[]> {
    return this.bars.get(key, interval, limit)
  }

  backfillBars(needs: readonly BarNeed[]): void {
    this.bars.backfillBars(needs)
  }

  sparkHistory(keys: readonly SymbolKey[]): Promise<Array<{ key: SymbolKey; bars: Bar[] }>> {
    return this.bars.sparkHistory(keys)
  }

  // The desk's needs: one quote call to check a symbol, the rules budget-preview.ts plans with.
  readonly probeSymbol = (key: SymbolKey) => probeSymbol(this.rest, key, () => this.clock.now())
  readonly budgetRules = () => ({
    streamCap: this.planner.effectiveCap(),
    perMinute: this.governor.snapshot().perMinute,
    pacing: this.poller.pacing(),
    now: this.clock.now(),
  })

  /**
   * Settings -> Test connection, through this engine: its budget, REST client and one socket as
   * it stands (engine-diagnostics.ts).
   */
  testConnection(): Promise<DoctorReport> {
    return testConnection({
      config: this.config,
      ...{ governor: this.governor, rest: this.rest, clock: this.clock, trust: this.trust },
      stream: liveStream(
        this.stream,
        () => this.feedStatus.streamError(),
        () => this.feedPlan.streamSubs,
      ),
      samples: () => this.poller.sampleCounts(),
    })
  }

  /** A new key leaves the 401-stopped state and reconnects with it. */
  setApiKey(apiKey: string): void {
    registerSecret(apiKey)
    this.config = { ...this.config, apiKey }
    this.rest.setApiKey(apiKey)
    this.governor.resetAuth()
    this.feedStatus.clear()
    this.stream.setApiKey(apiKey)
    this.poller.pollNow()
    this.feedStatus.changed()
  }

  /** After system sleep or when the user asks: check the stream at once and refresh polled values. */
  checkHealth(gapMs = 0): void {
    if (!this.started) return
    for (const l of this.resumeListeners) l(gapMs)
    this.stream.checkHealth()
    this.poller.pollNow()
  }

  seedFromCache(quotes: Quote[]): void {
    this.quotes.seed(quotes)
  }

  /**
   * Takes the quote a symbol probe just fetched (symbol-adder.ts) as the symbol's first snapshot,
   * so adding a symbol the catalogue did not know costs one quote call, not two. Agriculture was
   * probed on its kline endpoint, whose bar has no day fields: its snapshot still runs.
   */
  adoptProbedQuote(update: QuoteUpdate): void {
    const quote = this.ingest.quote(update)
    if (update.market !== 'agri') this.feedPlan.snapshotTaken(quote.key)
  }

  onQuote(listener: QuoteListener): () => void {
    return this.ingest.onQuote(listener)
  }

  onStatus(listener: Listener<FeedStatus>): () => void {
    return this.feedStatus.onStatus(listener)
  }

  onSymbolStatus(listener: Listener<SymbolStatus>): () => void {
    return this.statuses.onChange(listener)
  }

  /** Called after a detected gap (sleep/resume) so alert rules can mark what fires as "while you were away". */
  onResume(listener: Listener<number>): () => void {
    this.resumeListeners.add(listener)
    return () => this.resumeListeners.delete(listener)
  }

  /** StreamClient.holdReads: the stream's socket unread until the release (feed-events). */
  holdStreamReads(): () => void {
    return this.stream.holdReads()
  }

  streamStats(): ReturnType<StreamClient['stats']> {
    return this.stream.stats()
  }

  /** The socket and its events (engine-stream.ts); the engine keeps what they change. */
  private createStream(random: Random): StreamClient {
    return createEngineStream(
      {
        ...{ url: this.config.streamUrl, apiKey: this.config.apiKey },
        ...(this.config.auth ? { auth: this.config.auth } : {}),
        ...{ budget: this.governor, clock: this.clock, random, logger: this.logger },
      },
      {
        ...{ planner: this.planner, candles: this.candles, statuses: this.statuses },
        ...{ streamNames: this.streamNames, logger: this.logger, ingest: this.ingest },
        ...{ quotes: this.quotes, feedStatus: this.feedStatus },
        trust: () => this.trust,
        feedPlan: () => this.feedPlan,
        poller: () => this.poller,
      },
    )
  }

  /** A market's name or its prices' trust changed: the planner's gates and the status follow. */
  private gatesChanged(): void {
    gateMarkets(this.planner, this.streamNames, this.trust ?? null)
    this.feedStatus.changed()
  }

  private statusFacts(): StatusFacts {
    const open = this.stream.state() === 'open'
    return {
      started: this.started,
      governor: this.governor.snapshot(),
      streamState: this.stream.state(),
      streamRetryAt: this.stream.nextRetryAt(),
      streamSymbols: open ? this.feedPlan.streamSubs : 0,
      streamCap: this.planner.effectiveCap(),
      watchedCount: this.watched.size,
      ...this.streamNames.statusFacts(),
      distrusted: this.trust.distrusted(),
      pollEveryMs: this.poller.pacing().minIntervalMs,
    }
  }
}

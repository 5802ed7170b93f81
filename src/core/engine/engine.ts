import { PLAN_LIMITS, symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Bar, Interval, Quote, SymbolStatus } from '../../shared/quote'
import type { FeedStatus, StreamState } from '../../shared/status'
import type { DoctorReport } from '../../shared/bridge'
import { liveStream, liveStreamCheck } from '../doctor/connection-test'
import { runDoctor } from '../doctor/doctor'
import { CandleBuilder } from '../bars/candle-builder'
import { systemClock, type Clock } from '../clock'
import type { EngineConfig } from './engine-config'
import { deriveFeedStatus } from '../feed/feed-status'
import { FeedPlanner, PRIORITY } from '../feed/feed-planner'
import { registerSecret, silentLogger, type Logger } from '../log'
import { SymbolStatusBook } from '../quotes/symbol-statuses'
import type { BarNeed } from '../bars/bar-backfill'
import { EngineBars } from './engine-bars'
import { requireSymbolRef } from '../quotes/symbol-input'
import { QuotePoller } from '../poll/quote-poller'
import { QuoteStore } from '../quotes/quote-store'
import { QuoteIngest } from '../quotes/quote-ingest'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { RateGovernor } from '../rest/rate-governor'
import { RestClient } from '../rest/rest-client'
import { StaleSweep } from './stale-sweep'
import { SilentSymbolCheck } from './silent-symbol-check'
import type { StreamClient } from '../stream/stream-client'
import { createEngineStream, createStreamNames } from './engine-stream'
import { FeedPlanApplier } from '../feed/feed-plan-applier'
import type { StreamMarketNames, StreamNameMemory } from '../stream/stream-market-names'
import { watchForSleep } from './sleep-detector'
import { WatchedSymbols } from './watched-symbols'
import { probeSymbol } from '../rest/symbol-probe'
import type { TickdeskError } from '../errors'
import type { Random } from '../random'

export { PRIORITY }
type Listener<T> = (value: T) => void

export interface EngineOptions {
  clock?: Clock
  random?: Random
  logger?: Logger
  /** Stream market names that worked on this service before, and where to keep new ones. */
  nameMemory?: StreamNameMemory
}

/**
 * The market-data engine: one RateGovernor (shared REST + handshake budget), one StreamClient
 * (the app's only WebSocket), a QuotePoller for everything not streamed, and the QuoteStore.
 * The FeedPlanner decides who streams; this class only wires them and derives the FeedStatus.
 */
export class MarketEngine {
  readonly quotes: QuoteStore
  readonly candles = new CandleBuilder()
  /** Charts', sparklines' and moving averages' bars (engine-bars.ts). */
  private readonly bars: EngineBars
  private readonly clock: Clock
  private readonly random: Random
  private readonly logger: Logger
  private readonly governor: RateGovernor
  private readonly rest: RestClient
  private readonly poller: QuotePoller
  private readonly planner: FeedPlanner
  /** What each market is called on the stream, learned (stream-market-names.ts). */
  readonly streamNames: StreamMarketNames
  private readonly stream: StreamClient
  /** Puts the planner's plan into effect (feed-plan-applier.ts). */
  private readonly feedPlan: FeedPlanApplier
  private config: EngineConfig
  private readonly watched = new WatchedSymbols()
  private readonly statuses = new SymbolStatusBook((key) => this.watched.has(key))
  /** Every quote update, streamed or polled, lands here (quote-ingest.ts: the hot path). */
  private readonly ingest: QuoteIngest
  private readonly statusListeners = new Set<Listener<FeedStatus>>()
  private readonly resumeListeners = new Set<Listener<number>>()
  private lastError: TickdeskError | null = null
  private lastStreamError: TickdeskError | null = null
  private lastStatus: FeedStatus | null = null
  private started = false
  private readonly sweep: StaleSweep
  private readonly silentCheck: SilentSymbolCheck
  private stopSleepWatch: (() => void) | null = null

  constructor(config: EngineConfig, options: EngineOptions = {}) {
    this.config = config
    this.clock = options.clock ?? systemClock
    this.random = options.random ?? Math.random
    this.logger = options.logger ?? silentLogger
    registerSecret(config.apiKey)
    this.quotes = new QuoteStore(this.clock)
    this.ingest = new QuoteIngest(this.quotes, this.candles, this.statuses)
    this.sweep = new StaleSweep(this.clock, this.quotes, () => this.onFeedChange())
    this.governor = new RateGovernor({ rpm: config.rpm, clock: this.clock, random: this.random })
    this.rest = new RestClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      governor: this.governor,
      clock: this.clock,
      logger: this.logger,
      ...(config.auth ? { auth: config.auth } : {}),
    })
    this.planner = new FeedPlanner({ cap: PLAN_LIMITS[config.plan].wsSymbols, clock: this.clock })
    this.streamNames = createStreamNames({
      clock: this.clock,
      overrides: config.streamMarkets,
      memory: options.nameMemory,
      planner: this.planner,
      stream: () => this.stream,
      changed: () => this.onFeedChange(),
    })
    this.poller = new QuotePoller({
      client: this.rest,
      governor: this.governor,
      clock: this.clock,
      onUpdates: (updates) => {
        for (const u of updates) {
          const q = this.ingest.quote(u)
          this.silentCheck.answered(q.key, q.last)
        }
      },
      onSymbolStatus: (s) => this.statuses.set(s),
      onError: (e) => this.noteError(e),
      onServiceTag: (market, tag) => this.streamNames.serviceTag(market, tag),
    })
    this.bars = new EngineBars({
      candles: this.candles,
      rest: this.rest,
      clock: this.clock,
      budget: () => this.governor.snapshot(),
    })
    this.stream = this.createStream()
    this.feedPlan = new FeedPlanApplier({
      planner: this.planner,
      watched: this.watched,
      stream: this.stream,
      poller: this.poller,
      onApplied: () => this.onFeedChange(),
    })
    this.silentCheck = new SilentSymbolCheck({
      clock: this.clock,
      // Only markets whose name is proven (a market still being named is stream-market-names'),
      // and only symbols the stream fed since their slot (one never fed is the planner's).
      streamed: () =>
        this.stream.state() === 'open'
          ? this.feedPlan
              .streamedKeys((market) => this.streamNames.streaming(market))
              .filter((key) => this.planner.fedSinceSlot(key))
          : [],
      lastOf: (key) => this.quotes.get(key),
      check: (keys) => this.poller.pollNow(keys),
      missed: (key) => {
        this.logger.log('warn', 'stream: a streamed symbol missed a move REST saw', { key })
        this.planner.demote(key)
      },
      socket: () => this.stream.stats(),
    })
    this.governor.onChange(() => this.onFeedChange())
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
    this.feedPlan.replan()
    this.onFeedChange()
  }

  async stop(): Promise<void> {
    this.started = false
    this.poller.stop()
    this.bars.stop()
    this.stopSleepWatch?.()
    this.sweep.stop()
    this.silentCheck.stop()
    const namesSaved = this.streamNames.dispose()
    await Promise.all([this.stream.stop(), namesSaved])
    this.onFeedChange()
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
    return this.lastStatus ?? this.computeStatus()
  }

  symbolStatuses(): SymbolStatus[] {
    return this.statuses.all()
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
   * Settings -> Test connection, through this engine: its budget and the user's RPM, its REST
   * client, and its one socket as it stands. It opens no socket of its own: on the Free plan's
   * single connection that would be the service's second (spec: Limits).
   */
  testConnection(): Promise<DoctorReport> {
    const { baseUrl, apiKey, plan } = this.config
    const live = liveStream(
      this.stream,
      () => this.lastStreamError,
      () => this.feedPlan.streamSubs,
    )
    return runDoctor({
      ...{ baseUrl, apiKey, plan, governor: this.governor, client: this.rest, clock: this.clock },
      stream: () => liveStreamCheck(live, this.clock),
    })
  }

  /** A new key leaves the 401-stopped state and reconnects with it. */
  setApiKey(apiKey: string): void {
    registerSecret(apiKey)
    this.config = { ...this.config, apiKey }
    this.rest.setApiKey(apiKey)
    this.governor.resetAuth()
    this.lastError = null
    this.stream.setApiKey(apiKey)
    this.poller.pollNow()
    this.onFeedChange()
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

  onQuote(listener: Listener<Quote>): () => void {
    return this.ingest.onQuote(listener)
  }

  onStatus(listener: Listener<FeedStatus>): () => void {
    this.statusListeners.add(listener)
    return () => this.statusListeners.delete(listener)
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
  private createStream(): StreamClient {
    return createEngineStream(
      {
        url: this.config.streamUrl,
        apiKey: this.config.apiKey,
        ...(this.config.auth ? { auth: this.config.auth } : {}),
        budget: this.governor,
        clock: this.clock,
        random: this.random,
        logger: this.logger,
      },
      {
        planner: this.planner,
        candles: this.candles,
        statuses: this.statuses,
        streamNames: this.streamNames,
        logger: this.logger,
        ingest: this.ingest,
        marketOfStreamed: (symbol) => this.feedPlan.marketOfStreamed(symbol),
        refuseMarket: (market, code) => this.poller.refuseMarket(market, code),
        onState: (s) => this.onStreamState(s),
        onOpen: (resync) => {
          this.lastError = this.lastStreamError = null
          // One REST snapshot of the streamed symbols (within budget): on a reconnect it fills
          // what the gap missed; on the first open it brings the fields pushes may never carry
          // (day high/low, prevClose). A resync (same set, new socket) leaves no gap worth a call.
          if (!resync) this.feedPlan.snapshot(this.feedPlan.streamedKeys())
          this.onFeedChange()
        },
        onError: (e) => {
          this.lastStreamError = e
          this.noteError(e)
        },
      },
    )
  }

  private onStreamState(state: StreamState): void {
    if (state !== 'open') this.streamNames.socketLost()
    this.planner.setStreamAvailable(state === 'open')
    if (state !== 'open') this.quotes.markStale(this.feedPlan.streamedKeys())
    this.onFeedChange()
  }

  private noteError(error: TickdeskError): void {
    this.lastError = error
    this.logger.log('warn', 'feed error', { code: error.code, message: error.message })
    this.onFeedChange()
  }

  private computeStatus(): FeedStatus {
    return deriveFeedStatus({
      started: this.started,
      governor: this.governor.snapshot(),
      streamState: this.stream.state(),
      streamRetryAt: this.stream.nextRetryAt(),
      streamSymbols: this.stream.state() === 'open' ? this.feedPlan.streamSubs : 0,
      streamCap: this.planner.effectiveCap(),
      lastError: this.lastError,
      watchedCount: this.watched.size,
      plan: this.config.plan,
      demo: this.config.demo,
      ...this.streamNames.statusFacts(),
      pollEveryMs: this.poller.pacing().minIntervalMs,
    })
  }

  private onFeedChange(): void {
    const next = this.computeStatus()
    const prev = this.lastStatus
    this.lastStatus = next
    if (next.state === 'offline' || next.state === 'stopped') this.quotes.markStale('all')
    if (prev && JSON.stringify(prev) === JSON.stringify(next)) return
    for (const l of this.statusListeners) l(next)
  }
}

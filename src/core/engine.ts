import { PLAN_LIMITS, symbolKey, type SymbolKey } from '../shared/market'
import { type Bar, type Interval, type Quote, type SymbolStatus } from '../shared/quote'
import type { FeedStatus, StreamState } from '../shared/status'
import type { DoctorReport } from '../shared/bridge'
import { fetchCandles } from './candles-client'
import { liveStream, liveStreamCheck } from './connection-test'
import { runDoctor } from './doctor'
import { CandleBuilder } from './candle-builder'
import { systemClock, type Clock } from './clock'
import type { EngineConfig } from './engine-config'
import { deriveFeedStatus } from './feed-status'
import { FeedPlanner, PRIORITY } from './feed-planner'
import { FeedPlanApplier } from './feed-plan-applier'
import { registerSecret, silentLogger, type Logger } from './log'
import { SymbolStatusBook } from './symbol-statuses'
import { tradedSince } from './traded-volume'
import { klineRoute } from './market-routes'
import { SparkHistory } from './spark-history'
import { BarBackfill, type BarNeed } from './bar-backfill'
import { requireSymbolRef } from './symbol-input'
import { QuotePoller } from './quote-poller'
import { QuoteStore, type QuoteEntry } from './quote-store'
import type { QuoteUpdate } from './quote-fields'
import { RateGovernor } from './rate-governor'
import { RestClient } from './rest-client'
import { StaleSweep } from './stale-sweep'
import type { StreamClient } from './stream-client'
import { createEngineStream } from './engine-stream'
import { watchForSleep } from './sleep-detector'
import { WatchedSymbols } from './watched-symbols'
import { probeSymbol } from './symbol-probe'
import type { TickdeskError } from './errors'
import type { Random } from './random'

export { PRIORITY }

type Listener<T> = (value: T) => void

export interface EngineOptions {
  clock?: Clock
  random?: Random
  logger?: Logger
}

/**
 * The market-data engine: one RateGovernor (shared REST + handshake budget), one StreamClient
 * (the app's only WebSocket), a QuotePoller for everything not streamed, and the QuoteStore.
 * The FeedPlanner decides who streams; this class only wires them and derives the FeedStatus.
 */
export class MarketEngine {
  readonly quotes: QuoteStore
  readonly candles = new CandleBuilder()
  private readonly spark = new SparkHistory({
    candles: this.candles,
    budget: () => this.governor.snapshot(),
    fetch1m: (key, limit) => this.getCandles(key, '1m', limit),
  })
  /** History for moving-average alerts (bar-backfill.ts). */
  private readonly backfill: BarBackfill
  private readonly clock: Clock
  private readonly random: Random
  private readonly logger: Logger
  private readonly governor: RateGovernor
  private readonly rest: RestClient
  private readonly poller: QuotePoller
  private readonly planner: FeedPlanner
  private readonly stream: StreamClient
  /** Puts the planner's plan into effect (feed-plan-applier.ts). */
  private readonly plans: FeedPlanApplier
  private config: EngineConfig
  private readonly watched = new WatchedSymbols()
  private readonly statuses = new SymbolStatusBook((key) => this.watched.has(key))
  private readonly quoteListeners = new Set<Listener<Quote>>()
  private readonly statusListeners = new Set<Listener<FeedStatus>>()
  private readonly resumeListeners = new Set<Listener<number>>()
  private lastError: TickdeskError | null = null
  private lastStreamError: TickdeskError | null = null
  private lastStatus: FeedStatus | null = null
  private started = false
  private readonly sweep: StaleSweep
  private stopSleepWatch: (() => void) | null = null

  constructor(config: EngineConfig, options: EngineOptions = {}) {
    this.config = config
    this.clock = options.clock ?? systemClock
    this.random = options.random ?? Math.random
    this.logger = options.logger ?? silentLogger
    registerSecret(config.apiKey)
    this.quotes = new QuoteStore(this.clock)
    this.sweep = new StaleSweep(this.clock, this.quotes, () => this.onFeedChange())
    this.governor = new RateGovernor({ rpm: config.rpm, clock: this.clock, random: this.random })
    this.rest = new RestClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      governor: this.governor,
      clock: this.clock,
      logger: this.logger,
    })
    this.planner = new FeedPlanner({ cap: PLAN_LIMITS[config.plan].wsSymbols, clock: this.clock })
    this.poller = new QuotePoller({
      client: this.rest,
      governor: this.governor,
      clock: this.clock,
      onUpdates: (updates) => {
        for (const u of updates) this.ingest(u)
      },
      onSymbolStatus: (s) => this.statuses.set(s),
      onError: (e) => this.noteError(e),
    })
    this.backfill = new BarBackfill({
      candles: this.candles,
      clock: this.clock,
      budget: () => this.governor.snapshot(),
      fetch: (key, interval, limit) => fetchCandles(this.rest, key, interval, limit),
    })
    this.stream = this.createStream()
    this.plans = new FeedPlanApplier({
      planner: this.planner,
      watched: this.watched,
      stream: this.stream,
      poller: this.poller,
      onApplied: () => this.onFeedChange(),
    })
    this.governor.onChange(() => this.onFeedChange())
    this.planner.onChange(() => this.plans.replan())
  }

  start(): void {
    if (this.started) return
    this.started = true
    this.poller.start()
    this.stream.start()
    this.stopSleepWatch = watchForSleep(this.clock, (gapMs) => this.checkHealth(gapMs))
    this.sweep.start()
    this.plans.replan()
    this.onFeedChange()
  }

  async stop(): Promise<void> {
    this.started = false
    this.poller.stop()
    this.backfill.stop()
    this.stopSleepWatch?.()
    this.sweep.stop()
    await this.stream.stop()
    this.onFeedChange()
  }

  /** Ref-counted: two panels on one symbol cost one subscription. Returns the unsubscribe. */
  watch(key: SymbolKey, priority: number = PRIORITY.other): () => void {
    const ref = requireSymbolRef(key)
    const canonical = symbolKey(ref.market, ref.symbol)
    this.watched.add(canonical, priority)
    this.plans.replanSoon()
    let released = false
    return () => {
      if (released) return
      released = true
      if (!this.watched.release(canonical)) return
      this.statuses.delete(canonical)
      this.plans.forget(canonical)
      this.poller.forget(canonical)
      this.plans.replanSoon()
    }
  }

  /** Sets stream priorities (visible, alerted, pinned) for watched symbols; others fall back to 0. */
  setPriorities(priorities: ReadonlyMap<SymbolKey, number>): void {
    if (this.watched.setPriorities(priorities, PRIORITY.other)) this.plans.replanSoon()
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

  async getCandles(key: SymbolKey, interval: Interval, limit: number): Promise<Bar[]> {
    const ref = requireSymbolRef(key)
    const canonical = symbolKey(ref.market, ref.symbol)
    if (klineRoute(ref.market)) {
      const bars = await fetchCandles(this.rest, canonical, interval, limit)
      if (interval === '1m') this.candles.merge(canonical, bars)
      return bars
    }
    return this.candles.bars(canonical, interval, limit)
  }

  /** Bars moving-average alerts read, fetched once where missing (bar-backfill.ts). */
  backfillBars(needs: readonly BarNeed[]): void {
    this.backfill.want(needs)
  }

  /** The rows' sparkline history (spark-history.ts). */
  sparkHistory(keys: readonly SymbolKey[]): Promise<Array<{ key: SymbolKey; bars: Bar[] }>> {
    return this.spark.of(keys)
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
      () => this.plans.streamSubs,
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
    const quote = this.ingest(update)
    if (update.market !== 'agri') this.plans.snapshotTaken(quote.key)
  }

  onQuote(listener: Listener<Quote>): () => void {
    this.quoteListeners.add(listener)
    return () => this.quoteListeners.delete(listener)
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

  private createStream(): StreamClient {
    return createEngineStream(
      {
        url: this.config.streamUrl,
        apiKey: this.config.apiKey,
        budget: this.governor,
        clock: this.clock,
        random: this.random,
        logger: this.logger,
      },
      {
        planner: this.planner,
        candles: this.candles,
        statuses: this.statuses,
        logger: this.logger,
        ingestEntry: (u) => this.ingestEntry(u),
        onState: (state) => this.onStreamState(state),
        onOpen: (resync) => this.onStreamOpen(resync),
        onError: (e) => {
          this.lastStreamError = e
          this.noteError(e)
        },
      },
    )
  }

  private onStreamOpen(resync: boolean): void {
    this.lastError = this.lastStreamError = null
    // One REST snapshot of the streamed symbols (within budget): on a reconnect it fills what the
    // gap missed; on the first open it brings the fields pushes may never carry (day high/low,
    // prevClose). A resync (same set, new socket) leaves no gap worth a call.
    if (!resync) this.plans.snapshot(this.planner.streamedKeys())
    this.onFeedChange()
  }

  private ingest(update: QuoteUpdate): Quote {
    return this.ingestEntry(update).quote
  }

  /** One look-up for the whole tick: the store's entry carries the symbol's slot. */
  private ingestEntry(update: QuoteUpdate): QuoteEntry {
    const entry = this.quotes.applyEntry(update)
    const quote = entry.quote
    if (quote.last !== null) {
      const slot = entry.slot
      const candles = this.candles
      if (slot.ringEpoch !== candles.epoch || slot.ring === null) {
        slot.ring = candles.minuteRing(quote.key)
        slot.ringEpoch = candles.epoch
      }
      candles.addTo(slot.ring, quote.ts, quote.last, tradedSince(slot, quote.volume))
    }
    this.statuses.priced(quote.key)
    for (const l of this.quoteListeners) l(quote)
    return entry
  }

  private onStreamState(state: StreamState): void {
    this.planner.setStreamAvailable(state === 'open')
    if (state !== 'open') this.quotes.markStale(this.planner.streamedKeys())
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
      streamSymbols: this.stream.state() === 'open' ? this.plans.streamSubs : 0,
      streamCap: this.planner.effectiveCap(),
      lastError: this.lastError,
      watchedCount: this.watched.size,
      plan: this.config.plan,
      demo: this.config.demo,
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

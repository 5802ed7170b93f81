import {
  PLAN_LIMITS,
  parseSymbolKey,
  symbolKey,
  type Market,
  type SymbolKey,
} from '../shared/market'
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
import { aliasMarketName } from './market-aliases'
import { SilentSymbolCheck } from './silent-symbol-check'
import { StreamClient } from './stream-client'
import { StreamMarketNames, type MarketGate, type StreamNameMemory } from './stream-market-names'
import { watchForSleep } from './sleep-detector'
import { WatchedSymbols } from './watched-symbols'
import { probeSymbol } from './symbol-probe'
import type { TickdeskError } from './errors'
import type { Random } from './random'

export { PRIORITY }

function marketOfKey(key: SymbolKey): Market {
  return (parseSymbolKey(key) as { market: Market }).market
}

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
  /** What each market is called on the stream, learned (stream-market-names.ts). */
  readonly streamNames: StreamMarketNames
  private replanQueued = false
  private stream: StreamClient
  private config: EngineConfig
  private readonly watched = new WatchedSymbols()
  private readonly statuses = new SymbolStatusBook((key) => this.watched.has(key))
  private readonly snapshotted = new Set<SymbolKey>()
  private readonly quoteListeners = new Set<Listener<Quote>>()
  private readonly statusListeners = new Set<Listener<FeedStatus>>()
  private readonly resumeListeners = new Set<Listener<number>>()
  private streamSubs = 0
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
    const memory = options.nameMemory
    this.streamNames = new StreamMarketNames({
      clock: this.clock,
      ...(config.streamMarkets ? { overrides: config.streamMarkets } : {}),
      ...(memory ? { remembered: memory.remembered } : {}),
      onChange: (market, renamed) => this.onStreamName(market, renamed),
      ...(memory ? { onLearned: (m: Market, name: string) => memory.learned(m, name) } : {}),
      unreadable: () => this.stream.stats().malformed,
    })
    this.poller = new QuotePoller({
      client: this.rest,
      governor: this.governor,
      clock: this.clock,
      onUpdates: (updates) => {
        for (const u of updates) {
          const q = this.ingest(u)
          this.silentCheck.answered(q.key, q.last)
        }
      },
      onSymbolStatus: (s) => this.statuses.set(s),
      onError: (e) => this.noteError(e),
      onServiceTag: (market, tag) => this.streamNames.serviceTag(market, tag),
    })
    this.backfill = new BarBackfill({
      candles: this.candles,
      clock: this.clock,
      budget: () => this.governor.snapshot(),
      fetch: (key, interval, limit) => fetchCandles(this.rest, key, interval, limit),
    })
    this.stream = this.createStream()
    this.silentCheck = new SilentSymbolCheck({
      clock: this.clock,
      // Only markets whose name is proven: a market still being named is stream-market-names'.
      streamed: () =>
        this.stream.state() === 'open'
          ? this.streamedKeys().filter((k) => this.streamNames.streaming(marketOfKey(k)))
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
    this.planner.onChange(() => this.replan())
  }

  start(): void {
    if (this.started) return
    this.started = true
    this.poller.start()
    this.stream.start()
    this.stopSleepWatch = watchForSleep(this.clock, (gapMs) => this.checkHealth(gapMs))
    this.sweep.start()
    this.silentCheck.start()
    this.replan()
    this.onFeedChange()
  }

  async stop(): Promise<void> {
    this.started = false
    this.poller.stop()
    this.backfill.stop()
    this.stopSleepWatch?.()
    this.sweep.stop()
    this.silentCheck.stop()
    this.streamNames.dispose()
    await this.stream.stop()
    this.onFeedChange()
  }

  /** Ref-counted: two panels on one symbol cost one subscription. Returns the unsubscribe. */
  watch(key: SymbolKey, priority: number = PRIORITY.other): () => void {
    const ref = requireSymbolRef(key)
    const canonical = symbolKey(ref.market, ref.symbol)
    this.watched.add(canonical, priority)
    this.replanSoon()
    let released = false
    return () => {
      if (released) return
      released = true
      if (!this.watched.release(canonical)) return
      this.statuses.delete(canonical)
      this.snapshotted.delete(canonical)
      this.poller.forget(canonical)
      this.replanSoon()
    }
  }

  /** Sets stream priorities (visible, alerted, pinned) for watched symbols; others fall back to 0. */
  setPriorities(priorities: ReadonlyMap<SymbolKey, number>): void {
    if (this.watched.setPriorities(priorities, PRIORITY.other)) this.replanSoon()
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
      () => this.streamSubs,
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
    if (update.market !== 'agri') this.snapshotted.add(quote.key)
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
    const stream = new StreamClient({
      url: this.config.streamUrl,
      apiKey: this.config.apiKey,
      ...(this.config.auth ? { auth: this.config.auth } : {}),
      budget: this.governor,
      clock: this.clock,
      random: this.random,
      logger: this.logger,
      marketName: (market) => {
        const name = this.streamNames.wire(market)
        aliasMarketName(name, market)
        return name
      },
    })
    // The merged quote's key, not symbolKey(): no string built and hashed per tick (bench/ingest).
    stream.on('tick', (u) => {
      const entry = this.ingestEntry(u)
      const slot = entry.slot
      // Once the planner has seen a symbol's slot tick, it needs telling again only after it
      // dropped a slot (its epoch moved): no look-up per tick (symbol-slot.ts).
      if (slot.plannerEpoch === this.planner.tickEpoch) return
      this.streamNames.pushed(entry.quote.market)
      if (this.planner.noteTick(entry.quote.key)) slot.plannerEpoch = this.planner.tickEpoch
    })
    stream.on('subscribeSent', ({ market }) => this.streamNames.sent(market))
    stream.on('subscribed', ({ market }) => market !== null && this.streamNames.acked(market))
    stream.on('marketRefused', ({ code, message }) => {
      if (!this.streamNames.refusedFrame(code, message))
        this.logger.log('warn', 'stream: market refusal matched no try', { code, message })
    })
    stream.on('candle', (c) =>
      this.candles.merge(symbolKey(c.market, c.symbol), [c.bar], c.interval ?? undefined),
    )
    stream.on('state', (s) => this.onStreamState(s))
    stream.on('open', ({ resync }) => {
      this.lastError = this.lastStreamError = null
      // One REST snapshot of the streamed symbols (within budget): on a reconnect it fills what the
      // gap missed; on the first open it brings the fields pushes may never carry (day high/low,
      // prevClose). A resync (same set, new socket) leaves no gap worth a call.
      if (!resync) this.snapshotStreamed(this.streamedKeys())
      this.onFeedChange()
    })
    stream.on('symbolCap', (cap) => {
      // Over the symbol cap is not the symbol's fault: those poll, the rest keep streaming.
      const refused: SymbolKey[] = []
      for (const symbol of cap.symbols) {
        const market = cap.market ?? this.marketOfStreamed(symbol)
        if (market) refused.push(symbolKey(market, symbol))
      }
      this.logger.log('warn', 'stream symbol cap', { refused: refused.length })
      this.planner.capRefused(refused)
    })
    stream.on('symbolError', (e) => {
      const keys: SymbolKey[] = []
      for (const symbol of e.symbols) {
        const market = e.market ?? this.marketOfStreamed(symbol)
        if (market) keys.push(symbolKey(market, symbol))
      }
      this.statuses.refusedOnStream(keys, e.code, e.message)
    })
    stream.on('error', (e) => {
      this.lastStreamError = e
      this.noteError(e)
    })
    return stream
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
    if (state !== 'open') this.streamNames.socketLost()
    this.planner.setStreamAvailable(state === 'open')
    if (state !== 'open') this.quotes.markStale(this.streamedKeys())
    this.onFeedChange()
  }

  /**
   * A market's stream name failed or worked: its symbols poll or stream at once (the planner's
   * gates), and a new name is subscribed afresh. The status line says it (feed-status.ts).
   */
  private onStreamName(market: Market, renamed: boolean): void {
    if (renamed) this.stream.renamed(market)
    const gates = new Map<Market, MarketGate>()
    for (const r of this.streamNames.report()) gates.set(r.market, this.streamNames.gate(r.market))
    this.planner.setMarketGates(gates)
    this.onFeedChange()
  }

  private noteError(error: TickdeskError): void {
    this.lastError = error
    this.logger.log('warn', 'feed error', { code: error.code, message: error.message })
    this.onFeedChange()
  }

  /**
   * Watching a list watches its symbols one by one: planning once per symbol made loading 5000
   * symbols quadratic (2000 took 27 s). Changes in one synchronous run are planned once, at the
   * end of it (a microtask: before any timer, socket or request can see the old plan).
   */
  private replanSoon(): void {
    if (this.replanQueued) return
    this.replanQueued = true
    queueMicrotask(() => {
      if (!this.replanQueued) return
      this.replan()
    })
  }

  private replan(): void {
    this.replanQueued = false
    this.planner.setWatched(this.watched.ordered())
    const { streamed, polled, background } = this.planner.plan()
    this.stream.setSubscriptions(streamed)
    this.streamSubs = [...streamed.values()].reduce((n, s) => n + s.size, 0)
    this.poller.setSymbols(polled, background)
    // A symbol that starts streaming on an open socket still needs the fields pushes may never
    // carry (day high/low, prevClose): one snapshot, once.
    if (this.stream.state() === 'open') {
      const keys = this.streamedKeys().filter((k) => !this.snapshotted.has(k))
      if (keys.length > 0) this.snapshotStreamed(keys)
    }
    this.onFeedChange()
  }

  private snapshotStreamed(keys: SymbolKey[]): void {
    for (const k of keys) this.snapshotted.add(k)
    this.poller.pollNow(keys)
  }

  private streamedKeys(): SymbolKey[] {
    const { streamed } = this.planner.plan()
    const keys: SymbolKey[] = []
    for (const [market, symbols] of streamed)
      for (const s of symbols) keys.push(symbolKey(market, s))
    return keys
  }

  private marketOfStreamed(symbol: string): Market | null {
    for (const [market, symbols] of this.planner.plan().streamed)
      if (symbols.has(symbol)) return market
    return null
  }

  private computeStatus(): FeedStatus {
    return deriveFeedStatus({
      started: this.started,
      governor: this.governor.snapshot(),
      streamState: this.stream.state(),
      streamRetryAt: this.stream.nextRetryAt(),
      streamSymbols: this.stream.state() === 'open' ? this.streamSubs : 0,
      streamCap: this.planner.effectiveCap(),
      lastError: this.lastError,
      watchedCount: this.watched.size,
      plan: this.config.plan,
      demo: this.config.demo,
      unstreamed: this.streamNames.notStreaming(),
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

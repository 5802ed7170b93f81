import { AlertEngine } from '../core/alert-engine'
import { systemClock, type Clock, type TimerHandle } from '../core/clock'
import { isTickdeskError } from '../core/errors'
import { maskKey, silentLogger, type Logger } from '../core/log'
import { ensureDataDir } from '../core/persistence/data-dir'
import { openDataStores, defaultWatchlists, type DataStores } from '../core/persistence/stores'
import type { AlertRule, FiredAlert } from '../shared/alert'
import { type BridgeEvent, type CommandOutcome, type Notice, type Snapshot } from '../shared/bridge'
import type { Quote } from '../shared/quote'
import { encodeQuoteFrame } from '../shared/quote-frame'
import type { KeyInfo, Settings } from '../shared/settings'
import { invokeCommand } from './commands'
import { openFeed, type DemoOptions, type Feed } from './feed'
import type { AppHostApi, LogFolder, SecretStore, TrayQuote } from './host-api'
import { NoticeBoard } from './notice-board'
import { QuoteBatcher, realTiming, type BatchTiming } from './quote-batcher'
import { errorText } from './error-text'
import { WatchlistBook, type WatchlistState } from './watchlist-book'
import { watchPriorities } from './watch-priorities'
import { InstrumentCatalogue } from './catalogue/instrument-catalogue'
import { AddQueue } from './symbol-adder'
import { VERSION } from '../shared/version'

export interface AppServiceOptions {
  dataDir: string
  env: NodeJS.ProcessEnv
  secretStore: SecretStore
  clock?: Clock
  logger?: Logger
  /** The host's log folder, for the openLogFolder command; none: the command says NOT_SUPPORTED. */
  logFolder?: LogFolder
  demo?: DemoOptions
  /** When quote batches flush (default: as soon as the event loop is free); tests step it. */
  batchTiming?: BatchTiming
}

const QUOTE_CACHE_EVERY_MS = 5_000

/**
 * The host-agnostic application: settings, watchlists, alerts and the market-data engine, with
 * one typed command API and one event stream that both hosts carry to the renderer.
 */
export class AppService implements AppHostApi {
  settings!: Settings
  lists!: WatchlistState
  rules: AlertRule[] = []
  readonly notices: NoticeBoard
  feed!: Feed
  readonly alerts: AlertEngine
  /** Instruments findable by name: the shipped list plus symbols the service confirmed. */
  readonly catalogue = new InstrumentCatalogue()
  /** Adds run one after another, each on the list the previous one left. */
  readonly addQueue = new AddQueue()
  readonly clock: Clock
  readonly logger: Logger
  readonly logFolder: LogFolder | null
  private readonly listeners = new Set<(e: BridgeEvent) => void>()
  private readonly alertListeners = new Set<(a: FiredAlert) => void>()
  private readonly unwatch = new Map<string, () => void>()
  private visible = new Set<string>()
  private batcher!: QuoteBatcher
  private feedUnsubs: (() => void)[] = []
  private quoteCacheTimer: TimerHandle | null = null
  private apiKey: string | null = null
  private closed = false

  constructor(
    readonly stores: DataStores,
    readonly secretStore: SecretStore,
    readonly env: NodeJS.ProcessEnv,
    private readonly opts: AppServiceOptions,
  ) {
    this.clock = opts.clock ?? systemClock
    this.logger = opts.logger ?? silentLogger
    this.logFolder = opts.logFolder ?? null
    this.notices = new NoticeBoard(this.clock, (notices) => this.emit({ type: 'notices', notices }))
    this.alerts = new AlertEngine({ clock: this.clock })
    this.alerts.onFired((a) => this.onAlertFiredInternal(a))
  }

  async load(): Promise<void> {
    const settings = await this.stores.settings.load()
    this.settings = settings.value
    this.alerts.setPaused(this.settings.alertsPaused)
    this.noteProblem(settings.problem)
    const lists = await this.stores.watchlists.load()
    this.lists = lists.value.watchlists.length > 0 ? lists.value : defaultWatchlists()
    this.noteProblem(lists.problem)
    const alerts = await this.stores.alerts.load()
    this.rules = alerts.value.rules
    this.alerts.setRules(alerts.value.rules, alerts.value.states)
    this.noteProblem(alerts.problem)
    const history = await this.stores.alertHistory.load()
    this.alerts.setHistory(history.value)
    this.noteProblem(history.problem)
    const confirmed = await this.stores.instruments.load()
    for (const key of confirmed.value) this.catalogue.confirm(key)
    this.noteProblem(confirmed.problem)
    this.apiKey = await this.secretStore.get().catch(() => null)
    if (this.secretStore.warning)
      this.addNotice('warning', 'KEYCHAIN_UNAVAILABLE', this.secretStore.warning)
    await this.startFeed()
    const cached = await this.stores.quotes.load()
    this.noteProblem(cached.problem)
    this.feed.engine.seedFromCache(cached.value.filter((q: Quote) => this.isWatched(q.key)))
    const bars = await this.stores.bars.load()
    this.noteProblem(bars.problem)
    this.feed.engine.candles.import(bars.value)
    this.scheduleQuoteCache()
  }

  // ---- feed -------------------------------------------------------------------------------

  async startFeed(): Promise<void> {
    const previous = this.feed
    if (previous) {
      for (const u of this.feedUnsubs) u()
      this.feedUnsubs = []
      this.unwatch.clear()
      this.batcher.stop()
      await previous.engine.stop()
    }
    const quotes = previous ? previous.engine.quotes.all() : []
    this.feed = await openFeed({
      env: this.env,
      settings: this.settings,
      apiKey: this.apiKey,
      clock: this.clock,
      logger: this.logger,
      ...(this.opts.demo ? { demo: this.opts.demo } : {}),
      previousSim: previous?.sim ?? null,
    })
    const engine = this.feed.engine
    if (quotes.length) engine.seedFromCache(quotes)
    this.batcher = new QuoteBatcher(
      this.opts.batchTiming ?? realTiming,
      () => engine.quotes.drainPatches(),
      (quotes) => this.emit({ type: 'quotes', frame: encodeQuoteFrame(quotes) }),
    )
    this.feedUnsubs.push(
      engine.onQuote((q) => {
        this.batcher.request()
        this.alerts.evaluate(q)
      }),
      engine.onStatus((status) => {
        if (status.state === 'offline' || status.state === 'stopped') this.alerts.markGap()
        this.batcher.request()
        this.emit({ type: 'status', status })
      }),
      engine.onSymbolStatus(() =>
        this.emit({ type: 'symbolStatuses', statuses: engine.symbolStatuses() }),
      ),
      engine.onResume(() => this.alerts.markGap()),
    )
    this.syncWatches()
    engine.start()
    this.emit({ type: 'status', status: engine.status() })
  }

  /** Watch exactly the symbols on any list or with an alert; priorities by visibility, alerts, pins. */
  syncWatches(): void {
    const wanted = new Set([...WatchlistBook.allSymbols(this.lists), ...this.alerts.watchedKeys()])
    for (const [key, release] of this.unwatch) {
      if (!wanted.has(key)) {
        release()
        this.unwatch.delete(key)
        this.feed.engine.quotes.remove(key)
      }
    }
    for (const key of wanted)
      if (!this.unwatch.has(key)) this.unwatch.set(key, this.feed.engine.watch(key))
    this.feed.engine.setPriorities(
      watchPriorities({
        pinned: this.settings.pinned,
        alerted: this.alerts.watchedKeys(),
        visible: this.visible,
      }),
    )
  }

  isWatched(key: string): boolean {
    return this.unwatch.has(key)
  }

  setVisible(keys: string[]): void {
    this.visible = new Set(keys)
    this.syncWatches()
  }

  async setApiKey(apiKey: string): Promise<KeyInfo> {
    this.apiKey = apiKey
    await this.secretStore.set(apiKey).catch((e: unknown) => {
      this.addNotice(
        'warning',
        'KEYCHAIN_UNAVAILABLE',
        `The key could not be saved in the keychain (${errorText(e)}); it is kept in memory until you quit.`,
      )
    })
    if (this.feed.config.demo) await this.startFeed()
    else this.feed.engine.setApiKey(apiKey)
    this.emitSettings()
    return this.keyInfo()
  }

  async clearApiKey(): Promise<KeyInfo> {
    this.apiKey = null
    await this.secretStore.clear().catch(() => undefined)
    await this.startFeed()
    this.emitSettings()
    return this.keyInfo()
  }

  keyInfo(): KeyInfo {
    const envKey = this.env.TICKDESK_API_KEY
    const key = envKey || this.apiKey
    return {
      hasKey: Boolean(key),
      masked: maskKey(key),
      storage: envKey ? 'env' : key ? this.secretStore.kind : 'none',
      warning: this.secretStore.warning,
    }
  }

  // ---- state changes ----------------------------------------------------------------------

  async setLists(next: WatchlistState): Promise<void> {
    this.lists = next
    this.syncWatches()
    this.emit({ type: 'watchlists', watchlists: next.watchlists, activeWatchlistId: next.activeId })
    await this.persist(() => this.stores.watchlists.save(next))
  }

  async setRules(rules: AlertRule[]): Promise<void> {
    this.rules = rules
    this.alerts.setRules(rules, this.alerts.states())
    this.syncWatches()
    this.emitAlerts()
    await this.persistAlerts()
  }

  async setSettings(next: Settings): Promise<void> {
    const feedChanged =
      next.baseUrl !== this.settings.baseUrl ||
      next.plan !== this.settings.plan ||
      next.rpmOverride !== this.settings.rpmOverride
    this.settings = next
    this.alerts.setPaused(next.alertsPaused)
    if (feedChanged) await this.startFeed()
    else this.syncWatches()
    this.emitSettings()
    await this.persist(() => this.stores.settings.save(next))
  }

  async persistAlerts(): Promise<void> {
    await this.persist(() =>
      this.stores.alerts.save({ rules: this.rules, states: this.alerts.states() }),
    )
  }

  /** A failed save keeps everything in memory and says why; the next save tries again. */
  async persist(save: () => Promise<void>): Promise<void> {
    try {
      await save()
    } catch (e) {
      const code = isTickdeskError(e) ? e.code : 'STORAGE_ERROR'
      const message =
        code === 'DISK_FULL'
          ? 'The disk is full: your latest changes are kept in memory and will be saved when space is free.'
          : `Could not save your changes (${errorText(e)}); they are kept in memory.`
      this.addNotice('error', String(code), message)
    }
  }

  addNotice(level: Notice['level'], code: string, message: string): void {
    this.notices.add(level, code, message)
  }

  dismissNotice(id: string): void {
    this.notices.dismiss(id)
  }

  private noteProblem(problem: { code: string; message: string; movedTo?: string } | null): void {
    if (problem) this.addNotice('warning', problem.code, problem.message)
  }

  // ---- events -----------------------------------------------------------------------------

  emit(event: BridgeEvent): void {
    for (const l of this.listeners) l(event)
  }

  emitAlerts(): void {
    this.emit({
      type: 'alerts',
      alerts: this.rules,
      alertStates: this.alerts.states(),
      alertHistory: this.alerts.history(),
    })
  }

  emitSettings(): void {
    this.emit({ type: 'settings', settings: this.settings, keyInfo: this.keyInfo() })
  }

  private historyTimer: TimerHandle | null = null

  private onAlertFiredInternal(alert: FiredAlert): void {
    this.emit({ type: 'alertFired', alert })
    this.emitAlerts()
    for (const l of this.alertListeners) l(alert)
    if (this.historyTimer === null) {
      this.historyTimer = this.clock.setTimeout(() => {
        this.historyTimer = null
        void this.persist(() => this.stores.alertHistory.save(this.alerts.history()))
        void this.persistAlerts()
      }, 500)
    }
  }

  private scheduleQuoteCache(): void {
    this.quoteCacheTimer = this.clock.setTimeout(() => {
      void this.persist(() => this.stores.quotes.save(this.feed.engine.quotes.all())).then(() => {
        if (!this.closed) this.scheduleQuoteCache()
      })
    }, QUOTE_CACHE_EVERY_MS)
  }

  snapshot(): Snapshot {
    const engine = this.feed.engine
    return {
      watchlists: this.lists.watchlists,
      activeWatchlistId: this.lists.activeId,
      quotes: engine.quotes.all(),
      symbolStatuses: engine.symbolStatuses(),
      status: engine.status(),
      alerts: this.rules,
      alertStates: this.alerts.states(),
      alertHistory: this.alerts.history(),
      settings: this.settings,
      keyInfo: this.keyInfo(),
      notices: this.notices.all(),
      version: VERSION,
    }
  }

  // ---- AppHostApi -------------------------------------------------------------------------

  /** Validates params against the bridge contract, runs the command, never throws. */
  invoke(command: string, params: unknown): Promise<CommandOutcome<unknown>> {
    return invokeCommand(this, command, params)
  }

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  onAlertFired(listener: (alert: FiredAlert) => void): () => void {
    this.alertListeners.add(listener)
    return () => this.alertListeners.delete(listener)
  }

  trayQuotes(): TrayQuote[] {
    return this.settings.pinned.map((key) => {
      const q = this.feed.engine.quotes.get(key)
      return {
        key,
        last: q?.last ?? null,
        changePercent: q?.changePercent ?? null,
        stale: q?.stale ?? true,
      }
    })
  }

  notifyResume(): void {
    this.feed.engine.checkHealth()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.clock.clearTimeout(this.quoteCacheTimer)
    this.clock.clearTimeout(this.historyTimer)
    this.batcher.stop()
    await this.feed.engine.stop()
    await this.persist(() => this.stores.quotes.save(this.feed.engine.quotes.all()))
    await this.persist(() => this.stores.bars.save(this.feed.engine.candles.export()))
    await this.persist(() => this.stores.alertHistory.save(this.alerts.history()))
    await this.persistAlerts()
    await this.feed.sim?.close()
  }
}

export async function createAppService(opts: AppServiceOptions): Promise<AppService> {
  const stores = openDataStores(await ensureDataDir(opts.dataDir))
  const app = new AppService(stores, opts.secretStore, opts.env, opts)
  await app.load()
  return app
}

import { undeliveredViews } from './alert-undelivered'
import { systemClock, type Clock } from '../core/clock'
import { silentLogger, type Logger } from '../core/log'
import { ensureDataDir } from '../core/persistence/data-dir'
import type { StoreProblem } from '../core/persistence/json-store'
import { openDataStores, type DataStores } from '../core/persistence/stores'
import type { AlertRule, FiredAlert } from '../shared/alert'
import type { BridgeEvent, CommandOutcome, Notice, Snapshot } from '../shared/bridge'
import { parseSymbolKey, type SymbolKey } from '../shared/market'
import { sessionAt, type SessionInfo } from '../shared/market-sessions'
import type { Currency, PositionsFile, PositionsView } from '../shared/position'
import { fxKeysFor } from '../shared/position-report'
import type { Quote } from '../shared/quote'
import type { KeyInfo, Settings } from '../shared/settings'
import { VERSION } from '../shared/version'
import { inQuietHours } from '../shared/quiet-hours'
import { AlertDuty } from './alert-duty'
import { AlertLoop } from './alert-loop'
import { rulesEditedHere } from './alert-rule-source'
import { AlertLoopLock, ownerWords } from './alert-loop-lock'
import { WebhookBook } from './webhook-book'
import { loadAppData, loadMarketCache } from './app-data'
import { InstrumentCatalogue } from './catalogue/instrument-catalogue'
import { CurrencyTable } from './catalogue/instrument-currency'
import type { CommandContext, MarketQueries } from './command-context'
import { invokeCommand } from './commands'
import { EventHub } from './event-hub'
import { choosesOtherFeed, savedConfig, wantedConfig } from './feed-chooser'
import { connectFeedEvents } from './feed-events'
import { FeedSwitcher, type ActiveFeed } from './feed-switcher'
import type { AppHostApi, AppServiceOptions, LogFolder, TrayQuote } from './host-api'
import { KeyKeeper } from './key-keeper'
import { OutsideEdits } from './outside-edits'
import { NoticeBoard } from './notice-board'
import { SaveScheduler } from './save-scheduler'
import { AddQueue } from './symbol-adder'
import { trayQuotes } from './tray-quotes'
import { WatchSet } from './watch-set'
import { WatchlistBook, type WatchlistState } from './watchlist-book'

/**
 * The host-agnostic application: the trader's settings, watchlists and alerts, and the
 * market-data engine, behind one typed command API and one event stream that both hosts carry to
 * the renderer. It composes the parts that do each job (the feed switcher, the watch set, the key
 * keeper, the save scheduler, the notice board, the event hub) and is the one place where a
 * change of state is saved, re-watched and announced. Commands see it only as CommandContext.
 */
export class AppService implements AppHostApi, CommandContext {
  /** Instruments findable by name: the shipped list plus symbols the service confirmed. */
  readonly catalogue = new InstrumentCatalogue()
  /** Adds run one after another, each on the list the previous one left. */
  readonly addQueue = new AddQueue()
  /** Each instrument's quote currency, shipped with the catalogue. */
  private readonly currencies = new CurrencyTable()
  readonly logger: Logger
  readonly logFolder: LogFolder | null
  private readonly clock: Clock
  private readonly hub = new EventHub()
  private readonly notices: NoticeBoard
  private alerts!: AlertLoop
  /** Whether this process runs the folder's alerts (one loop per data folder). */
  private duty!: AlertDuty
  private webhooks!: WebhookBook
  private readonly keys: KeyKeeper
  private readonly watches = new WatchSet()
  private readonly feeds: FeedSwitcher
  private readonly saves: SaveScheduler
  /** The CLI may change positions, lists or alert rules while the app runs. */
  private readonly edits: OutsideEdits
  private state!: {
    settings: Settings
    lists: WatchlistState
    rules: AlertRule[]
    positions: PositionsFile
  }
  private closed = false
  /** A re-plan is due after the current turn (setVisible). */
  private replanArmed = false

  private constructor(
    private readonly stores: DataStores,
    private readonly opts: AppServiceOptions,
  ) {
    this.clock = opts.clock ?? systemClock
    this.logger = opts.logger ?? silentLogger
    this.logFolder = opts.logFolder ?? null
    this.notices = new NoticeBoard(this.clock, (notices) =>
      this.hub.emit({ type: 'notices', notices }),
    )
    this.edits = new OutsideEdits(this.clock)
    this.keys = new KeyKeeper(opts.secretStore, opts.env, this.notices)
    this.saves = new SaveScheduler({
      stores,
      clock: this.clock,
      notices: this.notices,
      quotes: () => this.feeds.current.engine.quotes.all(),
    })
    this.feeds = new FeedSwitcher({
      startDemo: opts.demo,
      clock: this.clock,
      logger: this.logger,
      attach: (engine) => {
        this.watches.use(engine)
        this.syncWatches()
        return connectFeedEvents(engine, {
          batchTiming: opts.batchTiming,
          hub: this.hub,
          alerts: this.alerts,
          clock: this.clock,
          quotesChanged: () => this.saves.quotesChanged(),
        })
      },
    })
  }

  /** Reads the data folder, takes the key from the host's store and starts the feed. */
  static async create(opts: AppServiceOptions): Promise<AppService> {
    const dir = await ensureDataDir(opts.dataDir)
    const app = new AppService(
      openDataStores(dir, opts.writer ? { writer: opts.writer } : {}),
      opts,
    )
    await app.load()
    return app
  }

  private async load(): Promise<void> {
    const note = (p: StoreProblem | null): void => {
      if (p) this.addNotice('warning', p.code, p.message)
    }
    const data = await loadAppData(this.stores, note)
    this.alerts = await AlertLoop.open({
      stores: this.stores,
      clock: this.clock,
      firedBy: 'app',
      // Until the duty below finds no other process running this folder's alerts.
      standby: true,
      quietNow: () => inQuietHours(this.state.settings.quietHours, this.clock.now()),
      onProblem: (code, message) => this.addNotice('warning', code, message),
      rules: rulesEditedHere((rules) => {
        this.state = { ...this.state, rules }
        this.syncWatches()
        this.emitAlerts()
      }),
    })
    this.alerts.setLists(data.lists.watchlists)
    this.alerts.setPaused(data.settings.alertsPaused)
    this.alerts.onChange(() => this.emitAlerts())
    this.alerts.addTarget({
      name: 'desktop',
      deliver: (alert) => {
        this.hub.emit({ type: 'alertFired', alert })
        this.hub.alertFired(alert)
      },
    })
    this.webhooks = new WebhookBook({
      store: this.stores.webhooks,
      clock: this.clock,
      loop: this.alerts,
      onProblem: (code, message) => this.addNotice('warning', code, message),
      onChange: () => this.emitAlerts(),
      secrets: this.opts.webhookSecrets ?? null,
    })
    await this.webhooks.sync()
    this.state = {
      settings: data.settings,
      lists: data.lists,
      rules: this.alerts.rules,
      positions: data.positions,
    }
    this.noteRunnerFires(data.history)
    for (const key of data.confirmed) this.catalogue.confirm(key)
    await this.keys.load(this.serviceUrl())
    const cache = await loadMarketCache(this.stores, note)
    // Levels crossed while nothing ran fire "while you were away" from the last price seen.
    const seen = new Map(cache.quotes.map((q) => [q.key, q.receivedAt]))
    this.alerts.markRestartGap((key) => seen.get(key))
    this.duty = new AlertDuty({
      lock: new AlertLoopLock(
        this.stores.dir,
        this.opts.alertsHostName ?? 'the Tickdesk app',
        this.clock.now(),
      ),
      clock: this.clock,
      run: async () => {
        await this.alerts.activate()
        this.alerts.markRestartGap((key) => seen.get(key))
        this.emitAlerts()
        return () => this.alerts.deactivate()
      },
      onOwner: (owner) => {
        if (owner === null)
          this.addNotice('info', 'ALERTS_TAKEN_OVER', 'This app now runs the alerts.')
        else
          this.addNotice(
            'info',
            'ALERTS_ELSEWHERE',
            `${ownerWords(owner)}: fires show here from the history; this app takes over when it stops.`,
          )
      },
      onProblem: (message) => this.addNotice('warning', 'ALERTS_DUTY', message),
    })
    await this.duty.start()
    await this.switchFeed()
    const engine = this.feeds.current.engine
    engine.seedFromCache(cache.quotes.filter((q) => this.watches.has(q.key)))
    engine.candles.import(cache.bars)
    this.watchOutsideEdits()
  }

  private watchOutsideEdits(): void {
    this.edits.watch(this.stores.positions, (next) => this.showPositions(next))
    this.edits.watch(this.stores.watchlists, (next) => {
      if (next.watchlists.length > 0) this.showLists(next)
    })
    this.edits.watch(this.stores.alerts, (next) => this.setRules(next.rules))
    this.edits.start()
  }

  // ---- state (read-only outside; replaced whole on every change) ---------------------------

  get settings(): Settings {
    return this.state.settings
  }

  get lists(): WatchlistState {
    return this.state.lists
  }

  get rules(): AlertRule[] {
    return this.state.rules
  }

  get positions(): PositionsFile {
    return this.state.positions
  }

  knowsSymbol(key: SymbolKey): boolean {
    return this.catalogue.has(key)
  }

  quoteOf(key: SymbolKey): Quote | undefined {
    return this.feeds.current.engine.quotes.get(key)
  }

  /** The book with each lot symbol's quote currency and the fx: keys watched to convert it. */
  positionsView(): PositionsView {
    const file = this.state.positions
    const currencyOf = (key: SymbolKey): Currency | null =>
      this.currencies.currencyOf(key, file.currencies)
    const quoteCurrencies: Record<string, Currency> = {}
    for (const lot of file.lots) {
      const c = currencyOf(lot.key)
      if (c !== null) quoteCurrencies[lot.key] = c
    }
    const fxKeys = fxKeysFor(file.lots, currencyOf, file.baseCurrency, (k) => this.catalogue.has(k))
    return { ...file, quoteCurrencies, fxKeys }
  }

  /** The engine running now and its config (hosts say "demo mode"; tests read its quotes). */
  get feed(): ActiveFeed {
    return this.feeds.current
  }

  get market(): MarketQueries {
    return this.feeds.current.engine
  }

  get feedPlan(): { plan: Settings['plan']; demo: boolean } {
    const { plan, demo } = this.feeds.current.config
    return { plan, demo }
  }

  now(): number {
    return this.clock.now()
  }

  alertedKeys(): SymbolKey[] {
    return this.alerts.watchedKeys()
  }

  bookKeys(): { lots: SymbolKey[]; slow: SymbolKey[] } {
    return { lots: this.state.positions.lots.map((l) => l.key), slow: this.wanted().slow }
  }

  snapshot(): Snapshot {
    const engine = this.feeds.current.engine
    return {
      watchlists: this.state.lists.watchlists,
      activeWatchlistId: this.state.lists.activeId,
      quotes: engine.quotes.all(),
      symbolStatuses: engine.symbolStatuses(),
      status: engine.status(),
      alerts: this.state.rules,
      alertStates: this.alerts.states(),
      alertHistory: this.alerts.history(),
      webhooks: this.webhooks.views(),
      undelivered: undeliveredViews(this.alerts),
      settings: this.state.settings,
      keyInfo: this.keys.info(this.serviceUrl()),
      notices: this.notices.all(),
      version: VERSION,
      positions: this.positionsView(),
      sessions: this.sessions(this.wanted().listed),
    }
  }

  /** Each symbol's market session now (the renderer recomputes at each nextChange). */
  private sessions(keys: readonly SymbolKey[]): Record<SymbolKey, SessionInfo> {
    const now = this.clock.now()
    const out: Record<SymbolKey, SessionInfo> = {}
    for (const key of keys) {
      const ref = parseSymbolKey(key)
      if (ref) out[key] = sessionAt(ref.market, ref.symbol, now)
    }
    return out
  }

  // ---- changes: saved, re-watched and announced here ---------------------------------------

  async setLists(next: WatchlistState): Promise<void> {
    this.showLists(next)
    await this.saves.now(() => this.stores.watchlists.save(next))
  }

  private showLists(next: WatchlistState): void {
    this.state = { ...this.state, lists: next }
    // List-wide alerts follow their list's symbols (and stream priority follows them).
    this.alerts.setLists(next.watchlists)
    // The window shows the change first: planning the watch of a 5000-symbol list takes a while.
    this.hub.emit({
      type: 'watchlists',
      watchlists: next.watchlists,
      activeWatchlistId: next.activeId,
    })
    this.syncWatches()
  }

  async setRules(rules: AlertRule[]): Promise<void> {
    this.state = { ...this.state, rules }
    const saved = this.alerts.setRules(rules)
    this.syncWatches()
    this.emitAlerts()
    await saved
  }

  async setPositions(next: PositionsFile): Promise<void> {
    this.showPositions(next)
    await this.saves.now(() => this.stores.positions.save(next))
  }

  private showPositions(next: PositionsFile): void {
    this.state = { ...this.state, positions: next }
    this.syncWatches()
    this.hub.emit({ type: 'positions', positions: this.positionsView() })
  }

  /** Takes in edits the CLI made to the data files now, not at the next few-second look. */
  checkOutsideEdits(): Promise<void> {
    return this.edits.checkNow()
  }

  retryUndelivered(fireId: string): Promise<boolean> {
    return this.alerts.owed.retry(fireId)
  }

  dropUndelivered(fireId: string): Promise<boolean> {
    return this.alerts.dropUndelivered(fireId)
  }

  async clearAlertHistory(): Promise<void> {
    const saved = this.alerts.clearHistory()
    this.emitAlerts()
    await saved
  }

  async setSettings(next: Settings): Promise<void> {
    const previous = this.state.settings
    this.state = { ...this.state, settings: next }
    this.alerts.setPaused(next.alertsPaused)
    if (choosesOtherFeed(previous, next)) {
      await this.askToMoveKey()
      await this.switchFeed()
    }
    // Of the settings, only the pinned symbols change what is watched: a header click (a grid
    // sort) or a layout change does not re-plan 5000 symbols.
    else if (!sameKeys(previous.pinned, next.pinned)) this.syncWatches()
    this.emitSettings()
    await this.saves.now(() => this.stores.settings.save(next))
  }

  async setApiKey(apiKey: string): Promise<KeyInfo> {
    // A fresh entry is the trader's word: the key is for the service the base URL names now.
    await this.keys.set(apiKey, this.serviceUrl())
    // Demo mode ends once a key is known (with a base URL); a running service just takes it.
    if (this.feeds.current.config.demo) await this.switchFeed()
    else this.feeds.current.engine.setApiKey(apiKey)
    this.emitSettings()
    return this.keys.info(this.serviceUrl())
  }

  async clearApiKey(): Promise<KeyInfo> {
    await this.keys.clear()
    await this.switchFeed()
    this.emitSettings()
    return this.keys.info(this.serviceUrl())
  }

  /**
   * The host's confirmation, from outside the page (the CLI's `web --trust-base-url`): the kept
   * key is for the service the base URL names now.
   */
  async confirmKeyHost(): Promise<void> {
    await this.keys.confirm(this.serviceUrl())
    await this.switchFeed()
    this.emitSettings()
  }

  /**
   * The rows on screen stream first. Re-planned after the command has answered (100 ms and
   * more at 5000 symbols), once for every change of one turn.
   */
  setVisible(keys: readonly string[]): void {
    this.watches.setVisible(keys)
    if (this.replanArmed) return
    this.replanArmed = true
    setImmediate(() => {
      this.replanArmed = false
      if (!this.closed) this.syncWatches()
    })
  }

  saveConfirmed(keys: SymbolKey[]): Promise<void> {
    return this.saves.now(() => this.stores.instruments.save(keys))
  }

  openSymbol(key: SymbolKey): void {
    this.hub.emit({ type: 'openSymbol', key })
  }

  addNotice(level: Notice['level'], code: string, message: string): void {
    this.notices.add(level, code, message)
  }

  dismissNotice(id: string): void {
    this.notices.dismiss(id)
  }

  // ---- AppHostApi -------------------------------------------------------------------------

  /** Validates params against the bridge contract, runs the command, never throws. */
  invoke(command: string, params: unknown): Promise<CommandOutcome<unknown>> {
    return invokeCommand(this, command, params)
  }

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    return this.hub.subscribe(listener)
  }

  onAlertFired(listener: (alert: FiredAlert) => void): () => void {
    return this.hub.onAlertFired(listener)
  }

  trayQuotes(): TrayQuote[] {
    return trayQuotes(this.state.settings.pinned, this.feeds.current.engine.quotes)
  }

  notifyResume(gapMs = 0): void {
    this.feeds.current.engine.checkHealth(gapMs)
  }

  announceOwedAlerts(): void {
    this.alerts.start()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.edits.close()
    await this.feeds.close()
    const engine = this.feeds.current.engine
    await this.saves.close()
    await this.webhooks.close()
    await this.duty.close()
    await this.alerts.close()
    await this.saves.now(() => this.stores.bars.save(engine.candles.export()))
  }

  // ---- inside ------------------------------------------------------------------------------

  /**
   * The one place the engine is given a key: keyFor hands it out only for the service it was
   * entered for (key-binding.ts; the security scan holds this line). Elsewhere the feed pauses
   * (demo prices meanwhile) and the page says why.
   */
  private async switchFeed(): Promise<void> {
    const wanted = wantedConfig({ env: this.opts.env, saved: savedConfig(this.state.settings) })
    const apiKey = this.keys.keyFor(wanted.baseUrl) ?? undefined
    this.keys.noteWithheld(
      wanted.baseUrl,
      this.opts.confirmKeyHost ? ' or confirm the change in the dialog' : '',
    )
    await this.feeds.switchTo({ ...wanted, apiKey })
    this.hub.emit({ type: 'status', status: this.feeds.current.engine.status() })
  }

  /** The base URL in effect (TICKDESK_BASE_URL over the saved one). */
  private serviceUrl(): string | undefined {
    return wantedConfig({ env: this.opts.env, saved: savedConfig(this.state.settings) }).baseUrl
  }

  /** Where the host can ask outside the page (Electron's dialog), a moved base URL may take the key. */
  private async askToMoveKey(): Promise<void> {
    const confirm = this.opts.confirmKeyHost
    const change = this.keys.withheldFrom(this.serviceUrl())
    if (!confirm || change === null) return
    const yes = await confirm(change).catch(() => false)
    if (yes) await this.keys.confirm(this.serviceUrl())
  }

  /**
   * Watch exactly the symbols on a list, with an alert or a lot, and the fx: pairs that convert
   * the lots to the base currency; priorities by visibility, alerts, pins.
   */
  private syncWatches(): void {
    this.watches.sync(this.wanted())
  }

  private wanted(): {
    listed: SymbolKey[]
    alerted: SymbolKey[]
    pinned: readonly string[]
    slow: SymbolKey[]
  } {
    const book = this.positionsView()
    const alerted = this.alerts.watchedKeys()
    const rows = new Set([
      ...WatchlistBook.allSymbols(this.state.lists),
      ...book.lots.map((l) => l.key),
      ...alerted,
    ])
    // A conversion pair nobody shows as a row is a helper: a minute-old rate is fine for totals.
    const slow = book.fxKeys.filter((k) => !rows.has(k))
    return {
      listed: [...rows, ...slow],
      alerted,
      pinned: this.state.settings.pinned,
      slow,
    }
  }

  private emitAlerts(): void {
    this.hub.emit({
      type: 'alerts',
      alerts: this.state.rules,
      alertStates: this.alerts.states(),
      alertHistory: this.alerts.history(),
      webhooks: this.webhooks.views(),
      undelivered: undeliveredViews(this.alerts),
    })
  }

  /**
   * What `tickdesk alerts run` fired since this app last ran (since the newest fire of the app's
   * own in the history): one notice, so the trader knows the runner was at work.
   */
  private noteRunnerFires(history: FiredAlert[]): void {
    const lastOwn = history.reduce((t, a) => (a.firedBy === 'app' ? Math.max(t, a.at) : t), 0)
    const byRunner = this.alerts.history().filter((a) => a.firedBy === 'runner' && a.at > lastOwn)
    if (byRunner.length === 0) return
    const n = byRunner.length
    this.addNotice(
      'info',
      'RUNNER_FIRED',
      `While Tickdesk was closed, the alerts runner fired ${n} alert${n === 1 ? '' : 's'}: see Alerts.`,
    )
  }

  private emitSettings(): void {
    this.hub.emit({
      type: 'settings',
      settings: this.state.settings,
      keyInfo: this.keys.info(this.serviceUrl()),
    })
  }
}

export function createAppService(opts: AppServiceOptions): Promise<AppService> {
  return AppService.create(opts)
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i])
}

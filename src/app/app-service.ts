import { systemClock, type Clock } from '../core/clock'
import { silentLogger, type Logger } from '../core/log'
import { ensureDataDir } from '../core/persistence/data-dir'
import type { StoreProblem } from '../core/persistence/json-store'
import { openDataStores, type DataStores } from '../core/persistence/stores'
import { streamNameMemory } from '../core/persistence/stream-name-memory'
import type { AlertRule, FiredAlert } from '../shared/alerts/alert'
import type { ServiceRef } from '../shared/alerts/alert-service'
import type { BridgeEvent, CommandOutcome, Notice, Snapshot } from '../shared/bridge'
import type { SymbolKey } from '../shared/markets/market'
import type { PositionsFile, PositionsView } from '../shared/positions/position'
import type { Quote } from '../shared/quote'
import type { KeyInfo, Settings } from '../shared/settings'
import { AppAlerts } from './alerts/app-alert-wiring'
import { loadAppData, type AppData } from './app-data'
import { InstrumentCatalogue } from './catalogue/instrument-catalogue'
import { CurrencyTable } from './catalogue/instrument-currency'
import type { CommandContext, MarketQueries } from './command-context'
import { invokeCommand } from './commands'
import { EventHub } from './event-hub'
import { deskSnapshot } from './watchlists/desk-snapshot'
import { choosesOtherFeed } from './feed/feed-chooser'
import { FrameBeat } from './feed/frame-beat'
import { attachFeed } from './feed/feed-attach'
import type { ActiveFeed } from './feed/feed-switcher'
import type { AppHostApi, AppServiceOptions, LogFolder, TrayQuote } from './host-api'
import { KeyedFeed } from './keys/keyed-feed'
import { OutsideEdits } from './outside-edits'
import { NoticeBoard } from './notice-board'
import { SaveScheduler } from './save-scheduler'
import { AddQueue } from './watchlists/symbol-adder'
import { trayQuotes } from './feed/tray-quotes'
import { cachedDesk, pictureOnRead, type CachedDesk } from './watchlists/cached-desk'
import { DeskWatches } from './watchlists/desk-watches'
import { DrawingBook } from './drawings/drawing-book'
import { positionsView, sessionsAt } from './watchlists/wanted-symbols'
import type { WatchlistState } from './watchlists/watchlist-book'

/**
 * The host-agnostic application: the trader's settings, watchlists and alerts, and the
 * market-data engine, behind one typed command API and one event stream that both hosts carry to
 * the renderer. It composes the parts that do each job (the keyed feed, the desk's watches, the
 * alerts, the save scheduler, the notice board, the event hub) and is the one place where a
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
  /** The alert host: runs the folder's alerts here, or shows the owner's (app-alert-wiring.ts). */
  private alertSet!: AppAlerts
  /** Each symbol's quote in the cache at start: when it was last priced ("while you were away"). */
  private seen: ReadonlyMap<SymbolKey, Quote> = new Map()
  /** The running engine and the key's way to it: key commands, feed switches (keyed-feed.ts). */
  private readonly keyed: KeyedFeed
  /** What the engine watches, in step with the lists, lots, alerts and pins (desk-watches.ts). */
  private readonly watches = new DeskWatches(() => ({
    lists: this.state.lists,
    book: this.positionsView(),
    alerted: this.alertSet.host.watchedKeys(),
    pinned: this.state.settings.pinned,
  }))
  private readonly saves: SaveScheduler
  /** The page's price frames, as it reports them: quote batches are timed to land before one. */
  readonly frameBeat = new FrameBeat()
  /** Lines and ranges drawn on charts (drawings.json), read on first use. */
  readonly drawings: DrawingBook
  /** The CLI may change positions, lists or alert rules while the app runs. */
  private readonly edits: OutsideEdits
  private state!: Pick<AppData, 'settings' | 'lists' | 'rules' | 'positions'>
  private closed = false

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
    this.drawings = new DrawingBook(stores.dir, this.notices, this.hub, opts.writer)
    this.saves = new SaveScheduler({
      stores,
      clock: this.clock,
      notices: this.notices,
      keep: (key) => this.watches.has(key),
    })
    this.keyed = new KeyedFeed({
      ...opts,
      clock: this.clock,
      logger: this.logger,
      nameMemory: (source) => streamNameMemory(stores.streamNames, source, this.logger),
      notices: this.notices,
      settings: () => this.state.settings,
      attach: (engine, config) =>
        attachFeed(engine, config, {
          batchTiming: opts.batchTiming,
          frameBeat: this.frameBeat,
          hub: this.hub,
          clock: this.clock,
          alerts: this.alertSet.host.feed,
          saves: this.saves,
          watches: this.watches,
        }),
      onStatus: (status) => this.hub.emit({ type: 'status', status }),
      onKeyChange: () => this.emitSettings(),
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
    const note = (p: StoreProblem | null): void => this.notices.warnOfFile(p)
    const data = await loadAppData(this.stores, note)
    const { settings, lists, rules, positions } = data
    this.state = { settings, lists, rules, positions }
    this.alertSet = AppAlerts.open({
      stores: this.stores,
      clock: this.clock,
      rules: () => this.state.rules,
      lists: () => this.state.lists.watchlists,
      data,
      feeds: this.keyed,
      host: this.opts,
      notify: this.notices.add.bind(this.notices),
      onRules: (rules) => {
        this.state = { ...this.state, rules }
        this.emitAlerts()
      },
      onWatched: () => this.watches.sync(),
      onChange: () => this.emitAlerts(),
      hub: this.hub,
      lastSeen: (key) => this.seen.get(key)?.receivedAt,
    })
    for (const key of data.confirmed) this.catalogue.confirm(key)
    // The quote cache needs no key: read beside the keychain (which may be slow to answer), the
    // host's picture told as soon as it is in.
    const cache = this.saves.startCache(this.keyed.wantedSource())
    const told = pictureOnRead(cache, { lists, settings }, this.opts.onCachedDesk)
    ;[this.seen] = await Promise.all([told, this.keyed.loadKey()])
    await this.keyed.switchFeed()
    this.keyed.offerMove()
    // After the feed: the service it runs on decides which rules this app may judge.
    await this.alertSet.start()
    // The CLI may change these files while the app runs.
    this.edits.watch(this.stores.positions, (next) => this.showPositions(next))
    this.edits.watch(this.stores.watchlists, (next) => {
      if (next.watchlists.length > 0) this.showLists(next)
    })
    this.edits.watch(this.stores.alerts, (next) => this.alertSet.took(next.rules))
    this.edits.watch(this.stores.webhooks, () => this.alertSet.host.syncWebhooks())
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
    return this.keyed.current.engine.quotes.get(key)
  }

  /** The book with each lot symbol's quote currency and the fx: keys watched to convert it. */
  positionsView(): PositionsView {
    return positionsView(this.state.positions, this.currencies, (k) => this.catalogue.has(k))
  }

  /** The engine running now and its config (hosts say "demo mode"; tests read its quotes). */
  get feed(): ActiveFeed {
    return this.keyed.current
  }

  get market(): MarketQueries {
    return this.keyed.current.engine
  }

  get feedPlan(): { plan: Settings['plan']; demo: boolean } {
    const { plan, demo } = this.keyed.current.config
    return { plan, demo }
  }

  now(): number {
    return this.clock.now()
  }

  alertedKeys(): SymbolKey[] {
    return this.alertSet.host.watchedKeys()
  }

  alertService(): ServiceRef {
    return this.alertSet.newRuleService()
  }

  bookKeys(): { lots: SymbolKey[]; slow: SymbolKey[] } {
    return { lots: this.state.positions.lots.map((l) => l.key), slow: this.watches.wanted().slow }
  }

  snapshot(): Snapshot {
    return deskSnapshot(this.keyed.current.engine, this.state, {
      ...this.alertSet.panel(),
      keyInfo: this.keyed.keyInfo(),
      notices: this.notices.all(),
      positions: this.positionsView(),
      sessions: sessionsAt(this.watches.wanted().listed, this.clock.now()),
    })
  }

  // ---- changes: saved, re-watched and announced here ---------------------------------------

  async setLists(next: WatchlistState): Promise<void> {
    this.showLists(next)
    await this.saves.now(() => this.stores.watchlists.save(next))
  }

  private showLists(next: WatchlistState): void {
    this.state = { ...this.state, lists: next }
    // List-wide alerts follow their list's symbols (and stream priority follows them).
    void this.alertSet.host.inputsChanged()
    // The window shows the change first: planning the watch of a 5000-symbol list takes a while.
    this.hub.emit({
      type: 'watchlists',
      watchlists: next.watchlists,
      activeWatchlistId: next.activeId,
    })
    this.watches.sync()
  }

  setRules(rules: AlertRule[]): Promise<void> {
    return this.alertSet.edit(rules)
  }

  async setPositions(next: PositionsFile): Promise<void> {
    this.showPositions(next)
    await this.saves.now(() => this.stores.positions.save(next))
  }

  private showPositions(next: PositionsFile): void {
    this.state = { ...this.state, positions: next }
    this.watches.sync()
    this.hub.emit({ type: 'positions', positions: this.positionsView() })
  }

  /** Takes in edits the CLI made to the data files now, not at the next few-second look. */
  checkOutsideEdits(): Promise<void> {
    return this.edits.checkNow()
  }

  retryUndelivered(fireId: string): Promise<boolean> {
    return this.alertSet.host.retry(fireId)
  }

  dropUndelivered(fireId: string): Promise<boolean> {
    return this.alertSet.host.drop(fireId)
  }

  async clearAlertHistory(): Promise<void> {
    const saved = this.alertSet.host.clearHistory()
    this.emitAlerts()
    await saved
  }

  async setSettings(next: Settings): Promise<void> {
    const previous = this.state.settings
    this.state = { ...this.state, settings: next }
    void this.alertSet.host.inputsChanged(next)
    if (choosesOtherFeed(previous, next)) await this.keyed.settingsChanged()
    else this.watches.syncPins(previous.pinned, next.pinned)
    this.emitSettings()
    await this.saves.now(() => this.stores.settings.save(next))
  }

  setApiKey(apiKey: string): Promise<KeyInfo> {
    return this.keyed.setApiKey(apiKey)
  }

  clearApiKey(): Promise<KeyInfo> {
    return this.keyed.clearApiKey()
  }

  /** Resolves once the key question asked last is answered and acted on (keyed-feed.ts). */
  keyMovesSettled(): Promise<void> {
    return this.keyed.settled()
  }

  /** The rows on screen stream first (desk-watches.ts). */
  setVisible(keys: readonly string[]): void {
    this.watches.setVisible(keys)
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
    return trayQuotes(this.state.settings.pinned, this.keyed.current.engine.quotes)
  }

  cachedDesk(): CachedDesk | null {
    return cachedDesk(this.state.lists, this.state.settings, (key) => this.quoteOf(key))
  }

  notifyResume(gapMs = 0): void {
    this.keyed.current.engine.checkHealth(gapMs)
  }

  announceOwedAlerts(): void {
    this.alertSet.host.announce()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.watches.close()
    await this.edits.close()
    await this.keyed.close()
    // The quote cache and what changed in the bars (each source's own: bar-keeper.ts) once more.
    await this.saves.close()
    await this.alertSet.close()
  }

  // ---- inside ------------------------------------------------------------------------------

  private emitAlerts(): void {
    this.hub.emit({ type: 'alerts', ...this.alertSet.panel() })
  }

  private emitSettings(): void {
    const { settings } = this.state
    this.hub.emit({ type: 'settings', settings, keyInfo: this.keyed.keyInfo() })
  }
}

export const createAppService = (opts: AppServiceOptions): Promise<AppService> =>
  AppService.create(opts)

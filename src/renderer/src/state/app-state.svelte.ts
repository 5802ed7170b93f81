import type { PositionsView } from '../../../shared/positions/position'
import type {
  AlertRule,
  AlertRuleState,
  FiredAlert,
  WebhookView,
} from '../../../shared/alerts/alert'
import type { UndeliveredView } from '../../../shared/alerts/undelivered'
import type { AlertOwnerView } from '../../../shared/alerts/alert-owner'
import type { BridgeEvent, Notice, Snapshot, TickdeskApi } from '../../../shared/bridge'
import { NO_KEY_INFO, SettingsSchema, type KeyInfo, type Settings } from '../../../shared/settings'
import type { FeedStatus } from '../../../shared/status'
import type { Watchlist } from '../../../shared/watchlist'
import { errorMessage } from '../bridge/bridge-error'
import { FrameBeatReporter } from './frame-beat-reporter'
import { MIN_FRAME_MS, pacedFrames } from './frame-pacer'
import { PatchCoalescer, type RequestFrame } from './patch-coalescer'
import { PendingAdds } from './pending-adds.svelte'
import { QuoteBook, type QuoteBookOptions } from './quote-book.svelte'
import { SparkSeeder } from '../grid/spark-seeder'
import { keepUnchanged } from '../lib/kept-lists'
import { afterPaint } from '../lib/when-idle'

type AlertsPart = Pick<
  Snapshot,
  'alerts' | 'alertStates' | 'alertHistory' | 'webhooks' | 'undelivered' | 'alertOwner'
>

/**
 * The renderer's copy of the app: the snapshot, then kept current by bridge events. Whole
 * collections that arrive whole (watchlists, alerts, settings) are $state.raw and replaced;
 * quotes go to per-row state in the QuoteBook.
 *
 * Lifecycle: loading --snapshot--> ready; a host reconnect calls load() again (events may have
 * been missed while the bridge was down, so only a fresh snapshot is trustworthy).
 */

export interface Toast {
  id: string
  alert: FiredAlert
}

export const TOAST_MS = 8000

/** The page's status before the host's first snapshot: connecting, nothing spent, no error. */
export const STATUS_BEFORE_SNAPSHOT: FeedStatus = {
  state: 'connecting',
  code: null,
  message: '',
  retryAt: null,
  stream: { state: 'idle', symbols: 0, cap: 0 },
  budget: { usedLastMinute: 0, perMinute: 0, callsToday: 0 },
  plan: 'free',
  demo: false,
}

export interface AppStateOptions extends QuoteBookOptions {
  /** How often ages ("12 s ago") and countdowns re-render. */
  tickMs?: number
  /**
   * Plays the alert sound (alerts/alert-sound.ts); called on alertFired when settings.sounds is
   * on.
   */
  alertSound?: () => void
  /**
   * Schedules the once-per-frame quote apply; requestAnimationFrame by default (a microtask where
   * there is none). Tests pass their own to apply synchronously or step frames by hand.
   */
  requestFrame?: RequestFrame
}

function defaultRequestFrame(minFrameMs: () => number, api: TickdeskApi): RequestFrame {
  const raf = globalThis.requestAnimationFrame
  if (typeof raf === 'function') {
    const beat = new FrameBeatReporter((periodMs, atMs) => {
      // A lost report only leaves the host on its gap until the next one.
      api.invoke('reportFrameBeat', { periodMs, atMs }).catch(() => undefined)
    }, performance.timeOrigin)
    return pacedFrames(
      {
        raf: (cb) => raf(cb),
        now: () => performance.now(),
        setTimer: (fn, ms) => setTimeout(fn, ms),
      },
      minFrameMs,
      (time) => beat.frame(time),
    )
  }
  return (run) => queueMicrotask(run)
}

export class AppState {
  watchlists = $state.raw<Watchlist[]>([])
  activeWatchlistId = $state<string | null>(null)
  status = $state.raw<FeedStatus>(STATUS_BEFORE_SNAPSHOT)
  alerts = $state.raw<AlertRule[]>([])
  alertStates = $state.raw<AlertRuleState[]>([])
  alertHistory = $state.raw<FiredAlert[]>([])
  webhooks = $state.raw<WebhookView[]>([])
  /** Fires a webhook gave up on, still owed: the alerts panel offers Retry and Drop. */
  undelivered = $state.raw<UndeliveredView[]>([])
  /** Who runs the data folder's alerts: this app, another process, or none (and on which service). */
  alertOwner = $state.raw<AlertOwnerView | null>(null)
  settings = $state.raw<Settings>(SettingsSchema.parse({}))
  keyInfo = $state.raw<KeyInfo>(NO_KEY_INFO)
  notices = $state.raw<Notice[]>([])
  version = $state('')
  ready = $state(false)
  loadError = $state<string | null>(null)
  hostConnected = $state(true)
  toasts = $state.raw<Toast[]>([])
  /** The trader's lots, base currency and quote currencies (null until the host sends them). */
  positions = $state.raw<PositionsView | null>(null)
  /** The keyboard shortcuts dialog ("?", Help > Keyboard Shortcuts). */
  shortcutsOpen = $state(false)
  /** The symbol whose detail view is open. */
  openKey = $state<string | null>(null)
  now = $state(0)
  readonly book: QuoteBook
  /** Symbols shown in their list before the host has answered their add (pending-adds.svelte.ts). */
  readonly adding = new PendingAdds()
  /** Quote batches wait here for the next animation frame (see PatchCoalescer). */
  readonly pending: PatchCoalescer
  /**
   * The least time between two applied price frames (frame-pacer.ts): MIN_FRAME_MS, or the pace
   * of a view shown that draws less often (the chart wall). Not reactive: read per request.
   */
  quoteFrameMs = MIN_FRAME_MS
  /** Seeds each row's sparkline with the last hour the host has. */
  private readonly sparks: SparkSeeder

  /** The active list as the host last said, and a tab clicked that the host has not yet answered. */
  private hostActiveId: string | null = null
  private switchingTo: string | null = null
  /**
   * Which tab click is the last: a click answered is done only when no click came after it. Its
   * id will not do: in b, a, b the first answer would end the third's switch, and the host's event
   * for a, still to come, would show a.
   */
  private switchSeq = 0

  private readonly clockNow: () => number
  private readonly setTimer: (fn: () => void, ms: number) => unknown

  constructor(
    readonly api: TickdeskApi,
    private readonly options: AppStateOptions = {},
  ) {
    this.clockNow = options.now ?? Date.now
    this.setTimer = options.setTimer ?? ((fn, ms): unknown => setTimeout(fn, ms))
    this.book = new QuoteBook(options)
    this.pending = new PatchCoalescer(
      options.requestFrame ?? defaultRequestFrame(() => this.quoteFrameMs, api),
      (rows) => this.book.applyPatches(rows),
    )
    this.now = this.clockNow()
    this.sparks = new SparkSeeder(api, (key, bars) => this.book.seedSpark(key, bars), this.setTimer)
  }

  /**
   * The clock's reading now, for a moment the trader marks: `now` is the last tick's (it moves
   * once a second for what re-renders), up to a second behind the click.
   */
  currentTime(): number {
    return this.clockNow()
  }

  /**
   * Shows a list at once and then tells the host, as a sort or a column change does: the host
   * re-plans the watch for the list on screen (100 ms and more at 5000 symbols), which the tab
   * does not wait for. If the host refuses, its own active list comes back.
   */
  async showWatchlist(id: string): Promise<void> {
    if (id === this.activeWatchlistId && this.switchingTo === null) return
    const seq = ++this.switchSeq
    this.switchingTo = id
    this.activeWatchlistId = id
    this.sparks.want(this.activeWatchlist?.symbols ?? [])
    try {
      // Told after the frame that shows the list: the click's frame does not encode and send it.
      await afterPaint()
      await this.api.invoke('setActiveWatchlist', { id })
    } catch (err) {
      if (seq === this.switchSeq) this.activeWatchlistId = this.hostActiveId
      throw err
    } finally {
      if (seq === this.switchSeq) this.switchingTo = null
    }
  }

  /** The active list as shown: the host's, with the symbols added and not yet answered at its end. */
  readonly activeWatchlist = $derived.by((): Watchlist | null => {
    const list =
      this.watchlists.find((w) => w.id === this.activeWatchlistId) ?? this.watchlists[0] ?? null
    return list === null ? null : this.adding.overlay(list)
  })

  /**
   * Shows at once, at the end of the list, the entries of an add that name a symbol exactly;
   * returns their keys for settleAdd() when the host answers.
   */
  showAdd(listId: string, inputs: readonly string[]): string[] {
    const list = this.watchlists.find((w) => w.id === listId)
    return list === undefined ? [] : this.adding.propose(list, inputs)
  }

  /** The host answered an add: `added` the keys it added, null when the add failed whole. */
  settleAdd(listId: string, keys: readonly string[], added: readonly string[] | null): void {
    const list = this.watchlists.find((w) => w.id === listId) ?? null
    this.adding.settle(listId, keys, added, list)
  }

  /** A row of the active list shown ahead of the host's answer. */
  isAdding(key: string): boolean {
    const id = this.activeWatchlist?.id
    return id !== undefined && this.adding.has(id, key)
  }

  async load(): Promise<void> {
    try {
      this.applySnapshot(await this.api.invoke('getSnapshot', {}))
      this.loadError = null
    } catch (err) {
      this.loadError = errorMessage(err)
    }
  }

  applySnapshot(s: Snapshot): void {
    this.watchlists = s.watchlists
    this.hostActiveId = s.activeWatchlistId
    this.activeWatchlistId = s.activeWatchlistId
    this.status = s.status
    this.applyAlerts(s)
    this.settings = s.settings
    this.keyInfo = s.keyInfo
    this.notices = s.notices
    this.positions = s.positions ?? null
    this.version = s.version
    // Patches queued before the snapshot are older than it: the snapshot wins.
    this.pending.clear()
    this.book.load(s.quotes, s.symbolStatuses)
    this.ready = true
    this.sparks.want(this.activeWatchlist?.symbols ?? [])
  }

  /** The alerts part, as the snapshot and the alerts event both carry it. */
  private applyAlerts(a: AlertsPart): void {
    this.alerts = a.alerts
    this.alertStates = a.alertStates
    this.alertHistory = a.alertHistory
    this.webhooks = a.webhooks
    this.undelivered = a.undelivered ?? []
    this.alertOwner = a.alertOwner ?? null
  }

  /** Subscribes to bridge events and starts the age clock; returns the stop function. */
  start(): () => void {
    const unsubscribe = this.api.subscribe((event) => this.handle(event))
    let running = true
    const tick = (): void => {
      if (!running) return
      this.now = this.clockNow()
      this.setTimer(tick, this.options.tickMs ?? 1000)
    }
    tick()
    return () => {
      running = false
      unsubscribe()
    }
  }

  handle(event: BridgeEvent): void {
    switch (event.type) {
      case 'quotes': {
        this.pending.push(event.frame)
        break
      }
      case 'status':
        this.status = event.status
        break
      case 'symbolStatuses':
        this.book.applyStatuses(event.statuses, false)
        break
      case 'watchlists':
        this.watchlists = keepUnchanged(this.watchlists, event.watchlists)
        this.adding.seen(this.watchlists)
        this.hostActiveId = event.activeWatchlistId
        // A tab clicked since shows until the host answers for it (showWatchlist).
        this.activeWatchlistId = this.switchingTo ?? event.activeWatchlistId
        this.sparks.want(this.activeWatchlist?.symbols ?? [])
        break
      case 'alerts':
        this.applyAlerts(event)
        break
      case 'alertFired':
        this.showToast(event.alert)
        if (this.settings.sounds && event.alert.quiet !== true) this.options.alertSound?.()
        break
      case 'settings':
        this.settings = event.settings
        this.keyInfo = event.keyInfo
        break
      case 'notices':
        this.notices = event.notices
        break
      case 'openSymbol':
        this.openKey = event.key
        break
      case 'positions':
        this.positions = event.positions
        break
      case 'showShortcuts':
        this.shortcutsOpen = true
        break
    }
  }

  showToast(alert: FiredAlert): void {
    const id = `${alert.id}-${this.clockNow()}`
    this.toasts = [...this.toasts.slice(-4), { id, alert }]
    this.setTimer(() => this.dismissToast(id), TOAST_MS)
  }

  dismissToast(id: string): void {
    this.toasts = this.toasts.filter((t) => t.id !== id)
  }

  alertState(ruleId: string): AlertRuleState | null {
    return this.alertStates.find((s) => s.ruleId === ruleId) ?? null
  }
}

import {
  COMMANDS,
  isCommandName,
  type BridgeEvent,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type DoctorReport,
  type LogFolderInfo,
  type Snapshot,
  type TickdeskApi,
} from '../../../shared/bridge'
import type { InstrumentMatch } from '../../../shared/markets/instrument'
import { addFake, FAKE_INSTRUMENTS, previewFake, searchFake } from './fake-desk'
import { isServiceUrl, mergeSettings, SettingsSchema, type KeyInfo } from '../../../shared/settings'
import { moveLevel } from '../../../shared/alerts/alert-level'
import { formatWatchlistFile } from '../../../shared/watchlist-file'
import type { FeedStatus } from '../../../shared/status'
import type { Bar, QuotePatch } from '../../../shared/quote'
import { encodeQuoteFrame } from '../../../shared/quote-frame'
import { baseSnapshot, emptyBook, keyInfoOf } from './fake-snapshot'
import { fakeDrawingHandlers } from './fake-drawings'
import { BridgeError } from '../bridge/bridge-error'
import {
  addLists,
  canonicalKey,
  deleteList,
  findList,
  moveSymbol,
  readListFile,
  reorderLists,
} from './fake-lists'

export { baseSnapshot, baseStatus, quote } from './fake-snapshot'

/**
 * An in-memory host for component tests: it keeps real state, validates params and results with
 * the contract's schemas exactly as a host does, answers with the app service's error codes
 * (test/contract/fake-vs-app.spec.ts runs both through the same cases), and emits the same events
 * a host would after each change. `calls` records what the renderer sent, so tests can assert on
 * addAlert params etc.
 */

export interface RecordedCall {
  name: CommandName
  params: unknown
}

type Handlers = { [N in CommandName]: (params: CommandResultParams<N>) => unknown }
type CommandResultParams<N extends CommandName> = ReturnType<
  (typeof COMMANDS)[N]['params']['parse']
>

export class FakeTickdeskApi implements TickdeskApi {
  /** Which host the fake plays; Electron-only paths (the strip window setting) check it. */
  host: 'electron' | 'web' = 'web'
  readonly calls: RecordedCall[] = []
  state: Snapshot
  candles: Bar[] = []
  /** What openLogFolder answers; the browser host's answer by default (it cannot open folders). */
  logFolder: LogFolderInfo = { path: '/home/trader/.config/Tickdesk/logs', opened: false }
  doctor: DoctorReport = {
    ok: true,
    baseUrl: 'http://127.0.0.1:1',
    plan: 'free',
    requestsSpent: 2,
    checks: [{ name: 'auth', ok: true, code: null, message: 'key accepted', latencyMs: 12 }],
  }
  /** What searchInstruments finds: matched on code and name, like the host's catalogue. */
  instruments: InstrumentMatch[] = FAKE_INSTRUMENTS.slice()
  /** Symbols the fake service does not list: addSymbols rejects them as UNKNOWN_SYMBOL. */
  unknownSymbols = new Set<string>()
  /** While set, addSymbols replies only when releaseAdds() runs (slow host, typing ahead). */
  holdAdds = false
  private heldAdds: Array<() => void> = []
  /** The full key as the host would store it; the fake never returns it, like a real host. */
  private storedKey: string | null = null
  private readonly listeners = new Set<(event: BridgeEvent) => void>()
  private nextId = 1

  constructor(snapshot: Snapshot = baseSnapshot()) {
    this.state = structuredClone(snapshot)
  }

  get apiKeyForTest(): string | null {
    return this.storedKey
  }

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit(event: BridgeEvent): void {
    for (const l of this.listeners) l(event)
  }

  pushQuotes(quotes: QuotePatch[]): void {
    this.emit({ type: 'quotes', frame: encodeQuoteFrame(quotes) })
  }

  setStatus(status: FeedStatus): void {
    this.state.status = status
    this.emit({ type: 'status', status })
  }

  /** Lets every held addSymbols reply, in the order they were sent. */
  releaseAdds(): void {
    for (const release of this.heldAdds.splice(0)) release()
  }

  callsOf(name: CommandName): unknown[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.params)
  }

  async invoke<N extends CommandName>(
    name: N,
    params: CommandParams<N>,
  ): Promise<CommandResult<N>> {
    this.calls.push({ name, params: structuredClone(params) })
    if (!isCommandName(name)) throw new BridgeError('INVALID_INPUT', `Unknown command ${name}`)
    const parsed = COMMANDS[name].params.safeParse(params ?? {})
    if (!parsed.success) throw new BridgeError('INVALID_INPUT', parsed.error.message)
    if (name === 'addSymbols' && this.holdAdds)
      await new Promise<void>((resolve) => this.heldAdds.push(resolve))
    const handler = this.handlers[name] as (p: unknown) => unknown
    const result = handler(parsed.data)
    return COMMANDS[name].result.parse(result) as CommandResult<N>
  }

  private newListId(): string {
    return `w${100 + this.nextId++}`
  }

  private emitWatchlists(): void {
    this.emit({
      type: 'watchlists',
      watchlists: structuredClone(this.state.watchlists),
      activeWatchlistId: this.state.activeWatchlistId,
    })
  }

  /** The test's book of lots (snapshot `positions`), created on first use. */
  private book(): NonNullable<Snapshot['positions']> {
    this.state.positions ??= emptyBook()
    return this.state.positions
  }

  private settleUndelivered(fireId: string, dropped: string | null): null {
    const owed = this.state.undelivered ?? []
    const u = owed.find((x) => x.fireId === fireId)
    if (u === undefined) throw new BridgeError('NOT_FOUND', 'No such undelivered alert')
    this.state.undelivered = owed.filter((x) => x !== u)
    if (dropped !== null)
      this.state.alertHistory = this.state.alertHistory.map((a) =>
        a.id === fireId ? { ...a, dropped: [{ to: u.to, why: dropped, at: 0 }] } : a,
      )
    this.emitAlerts()
    return null
  }

  /** Told to every page after an alert change (the drawing commands too: fake-drawings.ts). */
  emitAlerts(): void {
    const s = this.state
    this.emit({
      type: 'alerts',
      alerts: structuredClone(s.alerts),
      alertStates: structuredClone(s.alertStates),
      alertHistory: structuredClone(s.alertHistory),
      webhooks: structuredClone(s.webhooks),
      undelivered: structuredClone(s.undelivered ?? []),
    })
  }

  private keyInfo(): KeyInfo {
    return keyInfoOf(this.storedKey)
  }

  private readonly handlers: Handlers = {
    getSnapshot: () => structuredClone(this.state),
    createWatchlist: ({ name }) => {
      const w = { id: this.newListId(), name, symbols: [] }
      addLists(this.state, [w])
      this.emitWatchlists()
      return w
    },
    renameWatchlist: ({ id, name }) => {
      findList(this.state, id).name = name
      this.emitWatchlists()
      return null
    },
    deleteWatchlist: ({ id }) => {
      deleteList(this.state, id)
      this.emitWatchlists()
      return null
    },
    reorderWatchlists: ({ ids }) => {
      reorderLists(this.state, ids)
      this.emitWatchlists()
      return null
    },
    setActiveWatchlist: ({ id }) => {
      findList(this.state, id)
      this.state.activeWatchlistId = id
      this.emitWatchlists()
      return null
    },
    removeSymbol: ({ id, key }) => {
      const w = findList(this.state, id)
      w.symbols = w.symbols.filter((s) => s !== key)
      this.emitWatchlists()
      return null
    },
    moveSymbol: ({ id, key, toIndex }) => {
      moveSymbol(findList(this.state, id), key, toIndex)
      this.emitWatchlists()
      return null
    },
    importWatchlists: ({ format, text }) => {
      const created = readListFile(format, text, () => this.newListId())
      addLists(this.state, created)
      this.emitWatchlists()
      return created
    },
    exportWatchlist: ({ id, format }) => formatWatchlistFile(findList(this.state, id), format),
    searchInstruments: ({ query, limit }) => searchFake(this.instruments, query, limit),
    addSymbols: ({ id, inputs }) => {
      const list = findList(this.state, id)
      const report = addFake(list, inputs, this.unknownSymbols, this.instruments)
      if (report.added.length > 0) this.emitWatchlists()
      return report
    },
    previewBudget: ({ id, add }) =>
      previewFake(findList(this.state, id).symbols.length + (add?.length ?? 0), this.state),
    openSymbol: ({ key }) => {
      this.emit({ type: 'openSymbol', key: canonicalKey(key) })
      return null
    },
    setVisibleSymbols: () => null,
    reportFrameBeat: () => null,
    getCandles: ({ key }) => {
      canonicalKey(key)
      return this.candles
    },
    addLot: (input) => {
      const lot = {
        ...input,
        key: canonicalKey(input.key),
        date: input.date ?? null,
        fee: input.fee ?? 0,
        id: `l${this.nextId++}`,
        addedAt: 1,
      }
      const book = this.book()
      book.lots.push(lot)
      // As the app resolves it from the catalogue: crypto quotes in USDT, the rest in USD here.
      book.quoteCurrencies[lot.key] ??= lot.key.startsWith('crypto:') ? 'USDT' : 'USD'
      this.emit({ type: 'positions', positions: structuredClone(book) })
      return lot
    },
    removeLot: ({ id }) => {
      const book = this.book()
      const before = book.lots.length
      book.lots = book.lots.filter((l) => l.id !== id)
      if (book.lots.length === before) throw new BridgeError('NOT_FOUND', `No lot ${id}`)
      this.emit({ type: 'positions', positions: structuredClone(book) })
      return null
    },
    setBaseCurrency: ({ currency }) => {
      const book = this.book()
      book.baseCurrency = currency
      this.emit({ type: 'positions', positions: structuredClone(book) })
      return null
    },
    setStablecoinPeg: ({ on }) => {
      const book = this.book()
      book.pegStablecoins = on
      this.emit({ type: 'positions', positions: structuredClone(book) })
      return null
    },
    setQuoteCurrency: ({ key, currency }) => {
      const book = this.book()
      const k = canonicalKey(key)
      if (currency === null) delete book.currencies[k]
      else book.currencies[k] = currency
      // As the app's positionsView: the override wins over the catalogue's currency.
      book.quoteCurrencies[k] = currency ?? (k.startsWith('crypto:') ? 'USDT' : 'USD')
      this.emit({ type: 'positions', positions: structuredClone(book) })
      return null
    },
    getSparkHistory: ({ keys }) => keys.map((k) => ({ key: canonicalKey(k), bars: this.candles })),
    addAlert: (input) => {
      const key = input.listId ? `list:${input.listId}` : canonicalKey(input.key)
      const rule = { ...input, key, id: `a${this.nextId++}`, createdAt: 1, enabled: true }
      this.state.alerts.push(rule)
      this.state.alertStates.push({
        ruleId: rule.id,
        status: 'armed',
        lastFiredAt: null,
        lastPrice: null,
        lastSeenAt: null,
      })
      this.emitAlerts()
      return rule
    },
    removeAlert: ({ id }) => {
      this.state.alerts = this.state.alerts.filter((a) => a.id !== id)
      this.state.alertStates = this.state.alertStates.filter((s) => s.ruleId !== id)
      this.emitAlerts()
      return null
    },
    snoozeAlert: ({ id, minutes }) => {
      this.state.alerts = this.state.alerts.map((a) =>
        a.id === id ? { ...a, snoozedUntil: minutes === 0 ? null : 1 + minutes * 60_000 } : a,
      )
      this.emitAlerts()
      return null
    },
    setAlertEnabled: ({ id, enabled }) => {
      const rule = this.state.alerts.find((a) => a.id === id)
      if (!rule) throw new BridgeError('NOT_FOUND', id)
      rule.enabled = enabled
      const st = this.state.alertStates.find((s) => s.ruleId === id)
      if (st) st.status = enabled ? 'armed' : 'disabled'
      this.emitAlerts()
      return null
    },
    moveAlertLevel: ({ id, level, price }) => {
      const rule = this.state.alerts.find((a) => a.id === id)
      if (!rule) throw new BridgeError('NOT_FOUND', id)
      const moved = moveLevel(rule.condition, level, price)
      if (!moved.ok) throw new BridgeError('INVALID_INPUT', moved.message)
      rule.condition = moved.condition
      // As the app: a moved level is armed afresh (alert-engine.ts).
      const st = this.state.alertStates.find((s) => s.ruleId === id)
      if (st && rule.enabled) Object.assign(st, { status: 'armed', lastFiredAt: null })
      this.emitAlerts()
      return { ...rule }
    },
    clearAlertHistory: () => {
      this.state.alertHistory = []
      this.emitAlerts()
      return null
    },
    // As the app: a retry that the webhook takes, or a drop that the history keeps.
    retryUndelivered: ({ fireId }) => this.settleUndelivered(fireId, null),
    dropUndelivered: ({ fireId }) => this.settleUndelivered(fireId, 'dropped by the trader'),
    updateSettings: (patch) => {
      // Only the fields the caller sent: the patch schema fills defaults for absent ones.
      const sent = Object.keys(this.calls[this.calls.length - 1]?.params ?? {})
      const picked = Object.fromEntries(Object.entries(patch).filter(([k]) => sent.includes(k)))
      const next = SettingsSchema.parse(mergeSettings(this.state.settings, picked))
      next.pinned = next.pinned.map(canonicalKey)
      if (next.baseUrl !== '' && !isServiceUrl(next.baseUrl))
        throw new BridgeError('INVALID_INPUT', 'The base URL must start with https:// or http://')
      this.state.settings = next
      this.emit({ type: 'settings', settings: this.state.settings, keyInfo: this.keyInfo() })
      return this.state.settings
    },
    setApiKey: ({ apiKey }) => {
      this.storedKey = apiKey
      this.state.keyInfo = this.keyInfo()
      this.emit({ type: 'settings', settings: this.state.settings, keyInfo: this.state.keyInfo })
      return this.state.keyInfo
    },
    clearApiKey: () => {
      this.storedKey = null
      this.state.keyInfo = this.keyInfo()
      this.emit({ type: 'settings', settings: this.state.settings, keyInfo: this.state.keyInfo })
      return this.state.keyInfo
    },
    testConnection: () => this.doctor,
    dismissNotice: ({ id }) => {
      this.state.notices = this.state.notices.filter((n) => n.id !== id)
      this.emit({ type: 'notices', notices: this.state.notices })
      return null
    },
    openLogFolder: () => this.logFolder,
    ...fakeDrawingHandlers({
      snapshot: () => this.state,
      emit: (event) => this.emit(event),
      emitAlerts: () => this.emitAlerts(),
      newAlertId: () => `a${this.nextId++}`,
      now: () => Date.now(),
    }),
  }
}

import { z } from 'zod'
import { isCommandOutcome, type CommandOutcome } from './command-outcome'
import {
  AlertRuleInputSchema,
  AlertRuleSchema,
  AlertRuleStateSchema,
  FiredAlertSchema,
  MAX_SNOOZE_MINUTES,
  WebhookViewSchema,
} from './alerts/alert'
import { AlertLevelSchema } from './alerts/alert-level'
import { BarSchema, IntervalSchema, QuoteSchema, SymbolStatusSchema } from './quote'
import { QuoteFrameSchema } from './quote-frame'
import { BudgetPreviewSchema } from './budget'
import { AddReportSchema, InstrumentMatchSchema } from './markets/instrument'
import { SessionInfoSchema } from './markets/market-sessions'
import { PositionsViewSchema } from './positions/position'
import { command } from './bridge-command'
import { POSITION_COMMANDS } from './bridge-positions'
import { DRAWING_COMMANDS, DrawingsEventSchema } from './drawings/drawing-bridge'
import { KeyInfoSchema, SettingsPatchSchema, SettingsSchema } from './settings'
import { FeedStatusSchema } from './status'
import { UndeliveredViewSchema } from './alerts/undelivered'
import { AlertOwnerViewSchema } from './alerts/alert-owner'
import { MAX_SYMBOLS_PER_LIST, WatchlistSchema } from './watchlist'

/**
 * The bridge contract: the one source of truth for what crosses between a host (Electron main or
 * the browser host) and the renderer. Preload, IPC handlers, the web bridge and the renderer client
 * are all derived from COMMANDS and EventSchema; every message is validated on the receiving side.
 */

const id = z.string().min(1).max(64)
const key = z.string().min(1).max(64)
const name = z.string().trim().min(1).max(64)

/**
 * Keys per getSparkHistory call: each answers up to an hour of bars per key, so a 5000-symbol
 * list is seeded in batches (renderer grid/spark-seeder.ts), each reply a bounded parse.
 */
export const SPARK_HISTORY_BATCH = 500

/** The lists part of a snapshot, sent again whole as the `watchlists` event. */
const WATCHLISTS_PART = {
  watchlists: z.array(WatchlistSchema),
  activeWatchlistId: z.string().nullable(),
}

/** The alerts part of a snapshot, sent again whole as the `alerts` event. */
const ALERTS_PART = {
  alerts: z.array(AlertRuleSchema),
  alertStates: z.array(AlertRuleStateSchema),
  alertHistory: z.array(FiredAlertSchema),
  /** Where fired alerts are POSTed, with each one's failure count (set up with the CLI). */
  webhooks: z.array(WebhookViewSchema).default([]),
  /** Fires a webhook gave up on, still owed (absent from hosts that predate it). */
  undelivered: z.array(UndeliveredViewSchema).optional(),
  /** Who runs the data folder's alerts (this app, another process, or none), and on which service. */
  alertOwner: AlertOwnerViewSchema.optional(),
}

export const SnapshotSchema = z.object({
  ...WATCHLISTS_PART,
  quotes: z.array(QuoteSchema),
  symbolStatuses: z.array(SymbolStatusSchema),
  status: FeedStatusSchema,
  ...ALERTS_PART,
  settings: SettingsSchema,
  keyInfo: KeyInfoSchema,
  notices: z.array(z.lazy(() => NoticeSchema)),
  version: z.string(),
  /** The trader's lots and base currency; absent from hosts that predate it. */
  positions: PositionsViewSchema.optional(),
  /**
   * Each watched symbol's market session when the snapshot was taken. It changes with time, not
   * with quotes: the renderer recomputes it with sessionAt (market-sessions.ts) at `nextChange`.
   */
  sessions: z.record(z.string(), SessionInfoSchema).optional(),
})
export type Snapshot = z.infer<typeof SnapshotSchema>

export const NoticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  /** Our or the service's code: STORAGE_CORRUPT, KEYCHAIN_UNAVAILABLE, DISK_FULL … */
  code: z.string(),
  message: z.string(),
  /** The technical cause, behind a "details" disclosure (the message stays in a trader's words). */
  detail: z.string().nullable().default(null),
  /** How many times this cause was raised: repeats are merged, never stacked. */
  count: z.number().int().min(1).default(1),
  at: z.number(),
})
export type Notice = z.infer<typeof NoticeSchema>

export const DoctorCheckSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  code: z.string().nullable(),
  message: z.string(),
  latencyMs: z.number().nullable(),
  /** The failed REST call's X-Request-Id, for the trader to quote to the provider. */
  requestId: z.string().max(200).nullable().optional(),
})
export const DoctorReportSchema = z.object({
  ok: z.boolean(),
  baseUrl: z.string(),
  plan: z.string(),
  requestsSpent: z.number(),
  checks: z.array(DoctorCheckSchema),
})
export type DoctorReport = z.infer<typeof DoctorReportSchema>

const ExportFormatSchema = z.enum(['json', 'csv'])

/** Where the host's log files are; `opened` is false where the host cannot show a folder (browser). */
export const LogFolderSchema = z.object({ path: z.string(), opened: z.boolean() })
export type LogFolderInfo = z.infer<typeof LogFolderSchema>

export { command }

export const COMMANDS = {
  getSnapshot: command(z.object({}), SnapshotSchema),
  /** The trader's book: addLot, removeLot, setBaseCurrency, setStablecoinPeg, setQuoteCurrency. */
  ...POSITION_COMMANDS,
  /** Lines and ranges drawn on charts, and alerts on them: getDrawings, saveDrawings, addDrawingAlert. */
  ...DRAWING_COMMANDS,
  createWatchlist: command(z.object({ name }), WatchlistSchema),
  renameWatchlist: command(z.object({ id, name }), z.null()),
  deleteWatchlist: command(z.object({ id }), z.null()),
  reorderWatchlists: command(z.object({ ids: z.array(id).max(100) }), z.null()),
  setActiveWatchlist: command(z.object({ id }), z.null()),
  removeSymbol: command(z.object({ id, key }), z.null()),
  moveSymbol: command(
    z.object({ id, key, toIndex: z.number().int().min(0).max(MAX_SYMBOLS_PER_LIST) }),
    z.null(),
  ),
  importWatchlists: command(
    z.object({ format: ExportFormatSchema, text: z.string().max(1_000_000) }),
    z.array(WatchlistSchema),
  ),
  exportWatchlist: command(z.object({ id, format: ExportFormatSchema }), z.string()),
  /** Instruments matching part of a code or a name, across markets, best first. */
  searchInstruments: command(
    z.object({ query: z.string().max(64), limit: z.number().int().min(1).max(50).optional() }),
    z.array(InstrumentMatchSchema),
  ),
  /**
   * Adds symbols to a list: `market:SYMBOL` or a bare code the catalogue knows. A symbol the
   * catalogue does not know is checked with one quote call first. Says what was and was not added.
   */
  addSymbols: command(
    z.object({ id, inputs: z.array(z.string().max(64)).min(1).max(MAX_SYMBOLS_PER_LIST) }),
    AddReportSchema,
  ),
  /** What the list costs on the current plan, optionally with symbols about to be added. */
  previewBudget: command(
    z.object({ id, add: z.array(z.string().max(64)).max(MAX_SYMBOLS_PER_LIST).optional() }),
    BudgetPreviewSchema,
  ),
  /** Shows a symbol's detail in the main window (the ticker strip's click). */
  openSymbol: command(z.object({ key }), z.null()),
  /** Which symbols are on screen: they get stream priority. */
  setVisibleSymbols: command(z.object({ keys: z.array(key).max(MAX_SYMBOLS_PER_LIST) }), z.null()),
  /** The page's price frames come every periodMs, one at atMs (wall clock, epoch ms). */
  reportFrameBeat: command(
    z.object({ periodMs: z.number().min(4).max(1000), atMs: z.number().min(0).max(1e14) }),
    z.null(),
  ),
  getCandles: command(
    z.object({ key, interval: IntervalSchema, limit: z.number().int().min(1).max(5000) }),
    z.array(BarSchema),
  ),
  /** The last hour of 1-minute bars per symbol for the rows' sparklines (see engine.sparkHistory). */
  getSparkHistory: command(
    z.object({ keys: z.array(key).max(SPARK_HISTORY_BATCH) }),
    z.array(z.object({ key, bars: z.array(BarSchema) })),
  ),
  addAlert: command(AlertRuleInputSchema, AlertRuleSchema),
  removeAlert: command(z.object({ id }), z.null()),
  setAlertEnabled: command(z.object({ id, enabled: z.boolean() }), z.null()),
  /** A dragged alert line: one price level of a rule moved (alert-level.ts), the rest kept. */
  moveAlertLevel: command(
    z.object({ id, level: AlertLevelSchema.default('price'), price: z.number().finite() }),
    AlertRuleSchema,
  ),
  /** Quiet for `minutes` and armed afresh then (0 wakes it now); a list rule's symbols alike. */
  snoozeAlert: command(
    z.object({ id, minutes: z.number().int().min(0).max(MAX_SNOOZE_MINUTES) }),
    z.null(),
  ),
  clearAlertHistory: command(z.object({}), z.null()),
  /** A fire a webhook gave up on: tried again now, or no longer owed (a line in the history). */
  retryUndelivered: command(z.object({ fireId: id }), z.null()),
  dropUndelivered: command(z.object({ fireId: id }), z.null()),
  updateSettings: command(SettingsPatchSchema, SettingsSchema),
  setApiKey: command(z.object({ apiKey: z.string().trim().min(8).max(256) }), KeyInfoSchema),
  clearApiKey: command(z.object({}), KeyInfoSchema),
  testConnection: command(z.object({}), DoctorReportSchema),
  dismissNotice: command(z.object({ id }), z.null()),
  /** Asks the host to show its log folder (Electron: the file manager); always returns its path. */
  openLogFolder: command(z.object({}), LogFolderSchema),
} as const

export type CommandName = keyof typeof COMMANDS
export type CommandParams<N extends CommandName> = z.input<(typeof COMMANDS)[N]['params']>
export type CommandResult<N extends CommandName> = z.infer<(typeof COMMANDS)[N]['result']>
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[]

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(COMMANDS, value)
}

export const EventSchema = z.discriminatedUnion('type', [
  /**
   * Changed fields only, as a columnar frame (quote-frame.ts), sent when the host's event loop is
   * free; the frame is checked in one pass, not per patch.
   */
  z.object({ type: z.literal('quotes'), frame: QuoteFrameSchema }),
  z.object({ type: z.literal('status'), status: FeedStatusSchema }),
  z.object({ type: z.literal('symbolStatuses'), statuses: z.array(SymbolStatusSchema) }),
  z.object({ type: z.literal('watchlists'), ...WATCHLISTS_PART }),
  z.object({ type: z.literal('alerts'), ...ALERTS_PART }),
  z.object({ type: z.literal('alertFired'), alert: FiredAlertSchema }),
  z.object({ type: z.literal('settings'), settings: SettingsSchema, keyInfo: KeyInfoSchema }),
  z.object({ type: z.literal('notices'), notices: z.array(NoticeSchema) }),
  /** Open a symbol in the main window (tray notification click, a click on the ticker strip). */
  z.object({ type: z.literal('openSymbol'), key }),
  /** Help > Keyboard Shortcuts in the desktop app's menu. */
  z.object({ type: z.literal('showShortcuts') }),
  /** The lots, base currency or quote currencies changed (a bridge command). */
  z.object({ type: z.literal('positions'), positions: PositionsViewSchema }),
  DrawingsEventSchema,
])
export type BridgeEvent = z.infer<typeof EventSchema>

export const ErrorPayloadSchema = z.object({ code: z.string(), message: z.string() })
export type { CommandOutcome, ErrorPayload } from './command-outcome'

/** Any command's outcome, parsed (the shape is checked by command-outcome.ts, used everywhere). */
export const CommandOutcomeSchema = z.custom<CommandOutcome<unknown>>(isCommandOutcome, {
  message: 'Expected { ok: true, result } or { ok: false, error: { code, message } }',
})

/** The API the renderer sees as `window.tickdesk` (Electron preload) or builds over the web bridge. */
export interface TickdeskApi {
  invoke<N extends CommandName>(name: N, params: CommandParams<N>): Promise<CommandResult<N>>
  subscribe(listener: (event: BridgeEvent) => void): () => void
  readonly host: 'electron' | 'web'
}

/**
 * What the Electron preload puts on `window.tickdesk`: invoke resolves with the CommandOutcome
 * itself and never rejects with a host error, because contextBridge copies only the message of a
 * rejected Error and drops `code` (electron#24427). The renderer turns it into a TickdeskApi
 * (src/renderer/src/bridge/bridge-client.ts), validating every result and event there.
 */
export interface PreloadApi {
  invoke(name: CommandName, params: unknown): Promise<CommandOutcome<unknown>>
  subscribe(listener: (event: unknown) => void): () => void
  readonly host: 'electron'
}

/** Web bridge wire frames (browser host <-> page). */
export const WebRequestSchema = z.object({
  id: z.number().int().nonnegative(),
  command: z.string().max(64),
  params: z.unknown(),
})
export type WebRequest = z.infer<typeof WebRequestSchema>
export type WebFrame =
  | { kind: 'response'; id: number; outcome: CommandOutcome<unknown> }
  | { kind: 'event'; event: BridgeEvent }

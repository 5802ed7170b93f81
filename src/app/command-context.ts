import type { MarketEngine } from '../core/engine/engine'
import type { FrameBeat } from './feed/frame-beat'
import type { EngineConfig } from '../core/engine/engine-config'
import type { Logger } from '../core/log'
import type { ServiceRef } from '../shared/alerts/alert-service'
import type { AlertRule } from '../shared/alerts/alert'
import type { Notice, Snapshot } from '../shared/bridge'
import type { SymbolKey } from '../shared/markets/market'
import type { Quote } from '../shared/quote'
import type { KeyInfo, Settings } from '../shared/settings'
import type { InstrumentCatalogue } from './catalogue/instrument-catalogue'
import type { LogFolder } from './host-api'
import type { PositionAccess } from './positions/position-commands'
import type { DrawingAccess } from './drawings/drawing-commands'
import type { AddQueue } from './watchlists/symbol-adder'
import type { WatchlistState } from './watchlists/watchlist-book'

/**
 * What the bridge commands may use of the app: the state they read (read-only, replaced whole on
 * every change) and the changes they ask for. Each change is saved, re-synced with what the
 * engine watches and told to the renderer in one place (AppService); commands never reach the
 * stores, the engine's lifecycle or the event stream. Each command module takes only its part.
 */
export interface WatchlistAccess {
  readonly lists: WatchlistState
  setLists(next: WatchlistState): Promise<void>
  addNotice(level: Notice['level'], code: string, message: string): void
}

export interface AlertAccess {
  readonly rules: readonly AlertRule[]
  /** List-wide rules name a list; the symbols a rule may name are checked against these. */
  readonly lists: WatchlistState
  /** In the catalogue or confirmed by the service. */
  knowsSymbol(key: SymbolKey): boolean
  /** The latest quote held (a volume alert on a symbol whose quotes carry none is refused). */
  quoteOf(key: SymbolKey): Quote | undefined
  setRules(rules: AlertRule[]): Promise<void>
  /** The service a new alert is made for: only a process on it judges the alert. */
  alertService(): ServiceRef
  clearAlertHistory(): Promise<void>
  /** A fire a webhook gave up on (false: none with that id). */
  retryUndelivered(fireId: string): Promise<boolean>
  dropUndelivered(fireId: string): Promise<boolean>
  now(): number
}

export interface SettingsAccess {
  readonly settings: Settings
  setSettings(next: Settings): Promise<void>
  setApiKey(apiKey: string): Promise<KeyInfo>
  clearApiKey(): Promise<KeyInfo>
  dismissNotice(id: string): void
  /** The host's log folder; null where the host keeps no log. */
  readonly logFolder: LogFolder | null
}

/** What commands ask the running engine; which engine that is changes when the feed switches. */
export type MarketQueries = Pick<
  MarketEngine,
  | 'getCandles'
  | 'sparkHistory'
  | 'testConnection'
  | 'probeSymbol'
  | 'adoptProbedQuote'
  | 'symbolStatuses'
  | 'budgetRules'
>

export interface MarketAccess {
  readonly market: MarketQueries
  readonly feedPlan: Pick<EngineConfig, 'plan' | 'demo'>
  /** The symbols on screen: they stream first. */
  setVisible(keys: readonly string[]): void
  /** Where the page reports the beat of its price frames (quote batches are timed to it). */
  readonly frameBeat: Pick<FrameBeat, 'report'>
}

/** Search, adds with a check of unknown symbols, the budget line, opening a symbol. */
export interface DeskAccess extends WatchlistAccess, MarketAccess {
  readonly settings: Settings
  readonly catalogue: InstrumentCatalogue
  readonly addQueue: AddQueue
  alertedKeys(): SymbolKey[]
  /** Symbols watched for the trader's lots, and the FX pairs (slow helpers) converting them. */
  bookKeys(): { lots: SymbolKey[]; slow: SymbolKey[] }
  saveConfirmed(keys: SymbolKey[]): Promise<void>
  openSymbol(key: SymbolKey): void
}

export interface CommandContext
  extends AlertAccess, SettingsAccess, DeskAccess, PositionAccess, DrawingAccess {
  snapshot(): Snapshot
  /** Where a command that fails unexpectedly is recorded. */
  readonly logger: Logger
}

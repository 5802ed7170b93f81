import type { BatchTiming } from './feed/quote-batcher'
import type { Clock } from '../core/clock'
import type { Logger } from '../core/log'
import type { AtomicWriter } from '../core/persistence/atomic-file'
import type { BridgeEvent, CommandOutcome, FiredAlert, KeyInfo } from '../shared'
import type { DemoStarter } from './feed/feed-chooser'
import type { WebhookSecrets } from './secrets/webhook-secrets'
import type { ConfirmKeyMove } from './keys/key-move'
import type { CachedDesk } from './watchlists/cached-desk'

/**
 * Where the API key lives. Hosts provide one (src/app/secrets/secret-store.ts): the OS keychain
 * through keytar in the Electron app and the browser host alike, then Electron's safeStorage file
 * where its backend is real, else memory for this session (and the store says so in `warning`).
 */
export interface SecretStore {
  readonly kind: KeyInfo['storage']
  /** Why the key is less protected than it should be (no keychain), shown to the user; null if fine. */
  readonly warning: string | null
  get(): Promise<string | null>
  set(apiKey: string): Promise<void>
  clear(): Promise<void>
}

/**
 * The host's log folder (docs/configuration.md: the log). Electron opens it in the file manager; the browser
 * host cannot open a local folder from the page, so its open() resolves false and the renderer
 * shows the path instead.
 */
export interface LogFolder {
  readonly path: string
  open(): Promise<boolean>
}

export interface TrayQuote {
  key: string
  last: number | null
  changePercent: number | null
  stale: boolean
}

/**
 * What both hosts (Electron main, browser host) use of the application service. Hosts are thin:
 * they carry invoke() and events across their transport and add OS integration.
 */
export interface AppHostApi {
  /** Validates params against the bridge contract and runs the command; never throws. */
  invoke(command: string, params: unknown): Promise<CommandOutcome<unknown>>
  /** Bridge events; quotes come batched (quote-batcher.ts: when the loop is free, changed fields only). */
  subscribe(listener: (event: BridgeEvent) => void): () => void
  /** Fired alerts, for OS notifications from the host (they must work with no window open). */
  onAlertFired(listener: (alert: FiredAlert) => void): () => void
  /** Prices of the pinned symbols for the tray title/tooltip/menu. */
  trayQuotes(): TrayQuote[]
  /**
   * The active list with the prices the host holds now (the quote cache read at start), for the
   * page the browser host serves; null when there is none to show (watchlists/cached-desk.ts).
   */
  cachedDesk(): CachedDesk | null
  /**
   * Tells the engine the system resumed from sleep (slept `gapMs`; 0 when unknown): check health
   * at once; alerts that fire next are "while you were away" since the sleep began.
   */
  notifyResume(gapMs?: number): void
  /**
   * Once the host listens (activity log, notifier): fires a crash left unannounced (durable in
   * the fire journal, not yet told) go out now, late, with their ids.
   */
  announceOwedAlerts(): void
  close(): Promise<void>
}

/** What a host passes to createAppService: what differs between hosts is injected here. */
export interface AppServiceOptions {
  dataDir: string
  env: NodeJS.ProcessEnv
  secretStore: SecretStore
  /** Signed webhooks' secrets (the OS keychain); none: a signed webhook's deliveries fail, in words. */
  webhookSecrets?: WebhookSecrets
  /** Starts demo mode's service when no service is configured (the host injects the simulator). */
  demo: DemoStarter
  clock?: Clock
  logger?: Logger
  /** The host's log folder, for the openLogFolder command; none: the command says NOT_SUPPORTED. */
  logFolder?: LogFolder
  /** How files are written (default: temp + fsync + rename); the disk-full tests pass a failing one. */
  writer?: AtomicWriter
  /**
   * Asks the trader, outside the page (Electron: a main-process dialog; the browser host: its
   * terminal or command line), whether a key may go to an origin it was not entered for
   * (keys/key-move.ts), and says in `where` how that is answered. None: a key waits for a fresh
   * entry, and a fresh entry for another service than the kept key's is refused.
   */
  confirmKeyMove?: { confirm?: ConfirmKeyMove; where: string }
  /** When quote batches flush (default: as soon as the event loop is free); tests step it. */
  batchTiming?: BatchTiming
  /** Who runs the alerts, as other hosts on the data folder say it (default "the Tickdesk app"). */
  alertsHostName?: string
  /**
   * Told the active list's cached picture once the start has read the files and the quote cache,
   * before the feed and the alerts start: the browser host serves it while the rest of the
   * start runs (hosted-app.ts, beginHostedApp).
   */
  onCachedDesk?: (desk: CachedDesk | null) => void
}

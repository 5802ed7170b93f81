import type { Clock } from '../../core/clock'
import { isTickdeskError } from '../../core/errors'
import { errorText } from '../error-text'
import type { DataStores } from '../../core/persistence/stores'
import type { AlertRule, FiredAlert } from '../../shared/alerts/alert'
import type { FeedSource } from '../../core/persistence/source-id'
import { serviceRef, type ServiceRef } from '../../shared/alerts/alert-service'
import type { BridgeEvent } from '../../shared/bridge'
import type { SymbolKey } from '../../shared/markets/market'
import type { Settings } from '../../shared/settings'
import type { Watchlist } from '../../shared/watchlist'
import type { EventHub } from '../event-hub'
import type { NoticeBoard } from '../notice-board'
import { keychainProfile } from '../secrets/secret-store'
import type { AppServiceOptions } from '../host-api'
import { RuleFile } from './alert-rule-file'
import { undeliveredViews } from './alert-undelivered'
import { appInputs } from './ownership/alert-inputs'
import { AlertHost } from './ownership/alert-host'

/**
 * The app's side of the alert host (ownership/alert-host.ts): its desktop target (the window's
 * toast and the hosts' notifications), its rules as the trader edits them here (written through
 * RuleFile, merged with the CLI's edits), and the alerts panel it shows, whichever process runs
 * the folder's alerts.
 */
type Notify = NoticeBoard['add']

export interface AppAlertsOptions {
  stores: DataStores
  clock: Clock
  /** The rules as the app holds them now. */
  rules: () => AlertRule[]
  lists: () => Watchlist[]
  /** As read at start: the settings, and the history (what the runner fired since is announced). */
  data: { settings: Settings; history: FiredAlert[] }
  /** The feed running now (its service's rules are judged here) and the one configured. */
  feeds: { readonly current: { config: FeedSource }; wantedSource(): FeedSource }
  /** The host's options: its environment (the profile), keychain, and the name the lease gives. */
  host: Pick<AppServiceOptions, 'env' | 'webhookSecrets' | 'alertsHostName'>
  notify: Notify
  /** The rules to hold and show now (an edit here, merged, or the CLI's). */
  onRules: (rules: AlertRule[]) => void
  /** The symbols the judged rules watch may have changed (the engine is asked for them). */
  onWatched: () => void
  onChange: () => void
  /** Where a fire for the desktop goes: the window and the hosts' notifications. */
  hub: Pick<EventHub, 'emit' | 'alertFired'>
  /** When each symbol was last priced (the quote cache): "while you were away" from then. */
  lastSeen: (key: SymbolKey) => number | undefined
}

export class AppAlerts {
  private constructor(
    readonly host: AlertHost,
    private readonly o: AppAlertsOptions,
    private readonly file: RuleFile,
  ) {}

  static open(o: AppAlertsOptions): AppAlerts {
    const file = new RuleFile(o.stores.alerts, o.rules())
    const profile = keychainProfile(o.host.env)
    const host = new AlertHost({
      stores: o.stores,
      clock: o.clock,
      role: o.host.alertsHostName ?? 'the Tickdesk app',
      firedBy: 'app',
      service: () => serviceOf(runningOr(o.feeds), profile),
      inputs: appInputs(() => ({ rules: o.rules(), lists: o.lists() })),
      settings: o.data.settings,
      targets: [
        {
          name: 'desktop',
          deliver: (alert) => {
            o.hub.emit({ type: 'alertFired', alert })
            o.hub.alertFired(alert)
          },
        },
      ],
      webhookSecrets: o.host.webhookSecrets ?? null,
      lastSeen: o.lastSeen,
      settled: () => file.settled(),
      notify: (level, code, message) => o.notify(level, code, message),
      onChange: o.onChange,
    })
    return new AppAlerts(host, o, file)
  }

  /** Takes up the alerts (or stands by) and tells what the runner fired while the app was closed. */
  async start(): Promise<void> {
    await this.host.start()
    noteRunnerFires(this.o.data.history, this.host.alerts().history, this.o.notify)
  }

  /** The service a new alert is made for: the one configured (settings or the environment). */
  newRuleService(): ServiceRef {
    return serviceOf(this.o.feeds.wantedSource(), keychainProfile(this.o.host.env))
  }

  /**
   * The trader's edit: shown and judged at once (the engine is asked for new symbols in the same
   * turn), then written, merged with a CLI edit made meanwhile, and what was written shown.
   */
  async edit(rules: AlertRule[]): Promise<void> {
    const judged = this.take(rules)
    const written = await this.file.save(rules).catch((e: unknown) => {
      // A full disk: the edit is kept here and in force, and written with the next one that can.
      const code = isTickdeskError(e) ? e.code : 'STORAGE_ERROR'
      this.o.notify('warning', code, `Could not save the alert rules: ${errorText(e)}`)
      return rules
    })
    await judged
    if (written !== rules) await this.take(written)
  }

  /** The CLI changed alerts.json: taken in as it is; the next merge starts from it. */
  took(rules: AlertRule[]): Promise<void> {
    this.file.took(rules)
    return this.take(rules)
  }

  /** Held and shown, then judged at once, then the engine asked for their symbols. */
  private take(rules: AlertRule[]): Promise<void> {
    this.o.onRules(rules)
    const judged = this.host.inputsChanged()
    this.o.onWatched()
    return judged
  }

  /** The alerts panel: rules, states, history, webhooks (never a URL), undelivered, who runs them. */
  panel(): Omit<Extract<BridgeEvent, { type: 'alerts' }>, 'type'> {
    const now = this.host.alerts()
    return {
      alerts: this.o.rules(),
      alertStates: now.states,
      alertHistory: now.history,
      webhooks: this.host.webhooks.views(),
      undelivered: undeliveredViews(now.undelivered),
      alertOwner: this.host.owner(),
    }
  }

  async close(): Promise<void> {
    await this.host.close()
    await this.file.settled()
  }
}

/** The feed running now; before the first one starts, the one configured (it is the one to start). */
function runningOr(feeds: AppAlertsOptions['feeds']): FeedSource {
  try {
    return feeds.current.config
  } catch {
    return feeds.wantedSource()
  }
}

function serviceOf(feed: FeedSource, profile: string): ServiceRef {
  return serviceRef(feed.demo ? null : feed.baseUrl, profile)
}

/**
 * What `tickdesk alerts run` fired since this app last ran (since the newest fire of the app's
 * own in `before`, the history at load): one notice, so the trader knows the runner was at work.
 */
function noteRunnerFires(before: FiredAlert[], now: FiredAlert[], notify: Notify): void {
  const lastOwn = before.reduce((t, a) => (a.firedBy === 'app' ? Math.max(t, a.at) : t), 0)
  const n = now.filter((a) => a.firedBy !== 'app' && a.at > lastOwn).length
  if (n === 0) return
  notify(
    'info',
    'RUNNER_FIRED',
    `While Tickdesk was closed, the alerts runner fired ${n} alert${n === 1 ? '' : 's'}: see Alerts.`,
  )
}

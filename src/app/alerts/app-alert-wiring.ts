import type { Clock } from '../../core/clock'
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
import type { WebhookSecrets } from '../secrets/webhook-secrets'
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
  settings: Settings
  /** The feed running now (its service's rules are judged here) and the one configured. */
  feeds: { running: () => FeedSource; configured: () => FeedSource }
  env: NodeJS.ProcessEnv
  /** The history as the app read it at start: what the runner fired since is announced. */
  history: FiredAlert[]
  notify: Notify
  onChange: () => void
  /** Where a fire for the desktop goes: the window and the hosts' notifications. */
  hub: Pick<EventHub, 'emit' | 'alertFired'>
  webhookSecrets: WebhookSecrets | null
  /** Who the lease names while this process runs the alerts ("the Tickdesk app"). */
  hostName: string
}

export class AppAlerts {
  private constructor(
    readonly host: AlertHost,
    private readonly o: AppAlertsOptions,
    private readonly file: RuleFile,
  ) {}

  static open(o: AppAlertsOptions, lastSeen: (key: SymbolKey) => number | undefined): AppAlerts {
    const file = new RuleFile(o.stores.alerts, o.rules())
    const profile = keychainProfile(o.env)
    const host = new AlertHost({
      stores: o.stores,
      clock: o.clock,
      role: o.hostName,
      firedBy: 'app',
      service: () => serviceOf(o.feeds.running(), profile),
      inputs: appInputs(() => ({ rules: o.rules(), lists: o.lists() })),
      settings: o.settings,
      targets: [
        {
          name: 'desktop',
          deliver: (alert) => {
            o.hub.emit({ type: 'alertFired', alert })
            o.hub.alertFired(alert)
          },
        },
      ],
      webhookSecrets: o.webhookSecrets,
      lastSeen,
      settled: () => file.settled(),
      notify: (level, code, message) => o.notify(level, code, message),
      onChange: o.onChange,
    })
    return new AppAlerts(host, o, file)
  }

  /** Takes up the alerts (or stands by) and tells what the runner fired while the app was closed. */
  async start(): Promise<void> {
    await this.host.start()
    noteRunnerFires(this.o.history, this.host.alerts().history, this.o.notify)
  }

  /** The service a new alert is made for: the one configured (settings or the environment). */
  newRuleService(): ServiceRef {
    return serviceOf(this.o.feeds.configured(), keychainProfile(this.o.env))
  }

  /**
   * The trader's edit (the app holds `rules` already, and has told the host): written, merged
   * with a CLI edit made meanwhile; resolves to what was written.
   */
  setRules(rules: AlertRule[]): Promise<AlertRule[]> {
    return this.file.save(rules)
  }

  /** The CLI changed alerts.json (the app holds `rules` already): the next merge starts there. */
  tookRules(rules: AlertRule[]): Promise<void> {
    this.file.took(rules)
    return Promise.resolve()
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

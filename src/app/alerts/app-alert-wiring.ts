import { undeliveredViews } from './alert-undelivered'
import type { Clock } from '../../core/clock'
import type { DataStores } from '../../core/persistence/stores'
import type { AlertRule, FiredAlert } from '../../shared/alerts/alert'
import type { BridgeEvent } from '../../shared/bridge'
import { inQuietHours } from '../../shared/alerts/quiet-hours'
import type { Settings } from '../../shared/settings'
import type { SymbolKey } from '../../shared/markets/market'
import type { Watchlist } from '../../shared/watchlist'
import { AlertDuty } from './alert-duty'
import { AlertLoop } from './alert-loop'
import { AlertLoopLock, ownerWords } from './alert-loop-lock'
import { rulesEditedHere } from './alert-rule-source'
import type { EventHub } from '../event-hub'
import type { NoticeBoard } from '../notice-board'
import { WebhookBook } from '../webhooks/webhook-book'
import type { WebhookSecrets } from '../secrets/webhook-secrets'

/**
 * The app's alerts, wired (ARCHITECTURE: Alerts): the alert loop with the desktop target, the
 * webhook targets from webhooks.json, and the duty that runs the loop only while this process
 * holds the folder's lock (one loop per data folder). The loop itself lives in alert-loop.ts;
 * this module only connects it to the app service's notices and events.
 */
type Notify = NoticeBoard['add']

export interface AppAlertsOptions {
  stores: DataStores
  clock: Clock
  lists: Watchlist[]
  paused: boolean
  /** The trader's quiet hours now: a fire in them is marked quiet (no sound or pop). */
  quietHours: () => Settings['quietHours']
  /** The history as the app read it at start: what the runner fired since is announced. */
  history: FiredAlert[]
  notify: Notify
  /** Rules saved through the loop (an edit here): the app's state takes them. */
  onRulesEdited: (rules: AlertRule[]) => void
  onChange: () => void
  /** Where a fire for the desktop goes: the window and the hosts' notifications. */
  hub: Pick<EventHub, 'emit' | 'alertFired'>
  webhookSecrets: WebhookSecrets | null
  /** Who the lock names while this process runs the alerts ("the Tickdesk app"). */
  hostName: string
}

/** The alert loop, its webhook targets and its duty, opened and closed together. */
export class AppAlerts {
  private duty: AlertDuty | null = null

  private constructor(
    readonly loop: AlertLoop,
    readonly webhooks: WebhookBook,
    private readonly o: AppAlertsOptions,
  ) {}

  static async open(o: AppAlertsOptions): Promise<AppAlerts> {
    const { alerts, webhooks } = await openLoop(o)
    noteRunnerFires(o.history, alerts.history(), o.notify)
    return new AppAlerts(alerts, webhooks, o)
  }

  /**
   * Takes up the duty: the loop runs while this process holds the folder's lock. Levels crossed
   * while nothing ran fire "while you were away" from the last price seen (`lastSeen`).
   */
  async startDuty(lastSeen: (key: SymbolKey) => number | undefined): Promise<void> {
    this.loop.markRestartGap(lastSeen)
    this.duty = alertDuty({
      alerts: this.loop,
      dir: this.o.stores.dir,
      hostName: this.o.hostName,
      clock: this.o.clock,
      lastSeen,
      notify: this.o.notify,
      onActive: this.o.onChange,
    })
    await this.duty.start()
  }

  /** The alerts panel: the rules, their states, the history and the webhooks (never a URL). */
  panel(rules: AlertRule[]): Omit<Extract<BridgeEvent, { type: 'alerts' }>, 'type'> {
    return {
      alerts: rules,
      alertStates: this.loop.states(),
      alertHistory: this.loop.history(),
      webhooks: this.webhooks.views(),
      undelivered: undeliveredViews(this.loop),
    }
  }

  async close(): Promise<void> {
    await this.webhooks.close()
    await this.duty?.close()
    await this.loop.close()
  }
}

async function openLoop(
  o: AppAlertsOptions,
): Promise<{ alerts: AlertLoop; webhooks: WebhookBook }> {
  const onProblem = (code: string, message: string): void => o.notify('warning', code, message)
  const alerts = await AlertLoop.open({
    stores: o.stores,
    clock: o.clock,
    firedBy: 'app',
    // Until the duty (alertDuty below) finds no other process running this folder's alerts.
    standby: true,
    quietNow: () => inQuietHours(o.quietHours(), o.clock.now()),
    onProblem,
    rules: rulesEditedHere(o.onRulesEdited),
  })
  alerts.setLists(o.lists)
  alerts.setPaused(o.paused)
  alerts.onChange(o.onChange)
  alerts.addTarget({
    name: 'desktop',
    deliver: (alert) => {
      o.hub.emit({ type: 'alertFired', alert })
      o.hub.alertFired(alert)
    },
  })
  const webhooks = new WebhookBook({
    store: o.stores.webhooks,
    clock: o.clock,
    loop: alerts,
    onProblem,
    onChange: o.onChange,
    secrets: o.webhookSecrets,
  })
  await webhooks.sync()
  return { alerts, webhooks }
}

/**
 * Runs `alerts` while this process holds the folder's lock and says who runs them. Levels crossed
 * while nothing ran fire "while you were away" from the last price seen (`lastSeen`).
 */
function alertDuty(o: {
  alerts: AlertLoop
  dir: string
  hostName: string
  clock: Clock
  lastSeen: (key: SymbolKey) => number | undefined
  notify: Notify
  /** After the loop became active here (the app re-sends its alerts panel). */
  onActive: () => void
}): AlertDuty {
  return new AlertDuty({
    lock: new AlertLoopLock(o.dir, o.hostName, o.clock.now()),
    clock: o.clock,
    run: async () => {
      await o.alerts.activate()
      o.alerts.markRestartGap(o.lastSeen)
      o.onActive()
      return () => o.alerts.deactivate()
    },
    onOwner: (owner) => {
      if (owner === null) o.notify('info', 'ALERTS_TAKEN_OVER', 'This app now runs the alerts.')
      else
        o.notify(
          'info',
          'ALERTS_ELSEWHERE',
          `${ownerWords(owner)}: fires show here from the history; this app takes over when it stops.`,
        )
    },
    onProblem: (message) => o.notify('warning', 'ALERTS_DUTY', message),
  })
}

/**
 * What `tickdesk alerts run` fired since this app last ran (since the newest fire of the app's
 * own in `before`, the history at load): one notice, so the trader knows the runner was at work.
 */
function noteRunnerFires(before: FiredAlert[], now: FiredAlert[], notify: Notify): void {
  const lastOwn = before.reduce((t, a) => (a.firedBy === 'app' ? Math.max(t, a.at) : t), 0)
  const n = now.filter((a) => a.firedBy === 'runner' && a.at > lastOwn).length
  if (n === 0) return
  notify(
    'info',
    'RUNNER_FIRED',
    `While Tickdesk was closed, the alerts runner fired ${n} alert${n === 1 ? '' : 's'}: see Alerts.`,
  )
}

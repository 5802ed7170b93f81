import { follow } from '../../app/alerts/alert-follow'
import type { AlertTarget } from '../../app/alerts/alert-loop'
import { folderInputs } from '../../app/alerts/ownership/alert-inputs'
import { AlertHost, type AlertHostOptions } from '../../app/alerts/ownership/alert-host'
import { keychainProfile } from '../../app/secrets/secret-store'
import { keychainWebhookSecrets } from '../../app/secrets/webhook-secrets'
import { systemClock } from '../../core/clock'
import type { MarketEngine } from '../../core/engine/engine'
import type { EngineConfig } from '../../core/engine/engine-config'
import type { DataStores } from '../../core/persistence/stores'
import type { FiredAlert } from '../../shared/alerts/alert'
import { sinceWords } from '../../shared/alerts/alert-owner'
import { serviceRef } from '../../shared/alerts/alert-service'
import type { SymbolKey } from '../../shared/markets/market'
import { desktopNotifier } from '../desktop-notifier'
import type { CliIO } from '../io'

/**
 * The alert host (src/app/alerts/ownership/alert-host.ts) as a CLI command runs it: on the
 * command's engine and data folder, with the folder's rules and settings re-read as other
 * processes change them, the engine kept watching every symbol the rules judged here need, and
 * what it must tell the trader on stderr. `alerts run` and `watch --run-alerts` run the alerts
 * when they hold the folder's lease (their targets: stdout, the desktop where notify-send or
 * osascript exists, every webhook); `watch` alone only views them (`views`).
 */
export interface CliAlertsOptions {
  stores: DataStores
  engine: MarketEngine
  config: EngineConfig
  io: CliIO
  role: string
  firedBy: FiredAlert['firedBy']
  /** stdout, where printing fires is this command's job. */
  stdout: AlertTarget | null
  /** Only shows the folder's fires (the reason, for the trader); absent: may run them. */
  viewOnly?: string
  onViewedFire?: (alert: FiredAlert) => void
  /** When each symbol was last priced here (the quote cache). */
  lastSeen: (key: SymbolKey) => number | undefined
  say: (message: string) => void
  /** Whether an engine status is one the feed was in (not the placeholder before start). */
  statusCounts: () => boolean
}

export interface CliAlerts {
  host: AlertHost
  stop(): Promise<void>
}

export async function startCliAlerts(o: CliAlertsOptions): Promise<CliAlerts> {
  const { stores, engine } = o
  const settings = (await stores.settings.load()).value
  const inputs = await folderInputs(stores, (p) => p && o.say(p.message))
  const targets: AlertTarget[] = []
  if (o.viewOnly === undefined) {
    if (o.stdout) targets.push(o.stdout)
    const desktop = desktopNotifier(o.io.env)
    if (desktop) targets.push(desktop)
  }
  const watched = new Map<SymbolKey, () => void>()
  const told = new Map<string, string>()
  const profile = keychainProfile(o.io.env)
  const options: AlertHostOptions = {
    stores,
    clock: systemClock,
    role: o.role,
    firedBy: o.firedBy,
    service: () => serviceRef(o.config.demo ? null : o.config.baseUrl, profile),
    inputs,
    settings,
    targets,
    webhookSecrets: o.viewOnly === undefined ? keychainWebhookSecrets({ profile }) : null,
    lastSeen: o.lastSeen,
    notify: (_level, code, message) => {
      // Said once per cause until it changes: a disk that refuses every save would fill stderr.
      if (told.get(code) === message) return
      told.set(code, message)
      o.say(message)
    },
    onChange: () => {
      if (o.viewOnly === undefined) syncWatches(engine, host, watched)
    },
    ...(o.onViewedFire ? { onViewedFire: o.onViewedFire } : {}),
    ...(o.viewOnly === undefined ? {} : { mayOwn: () => ({ ok: false, why: String(o.viewOnly) }) }),
  }
  const host: AlertHost = new AlertHost(options)
  // A viewer judges nothing: its engine prices only the symbols the trader asked to see.
  const unfollow =
    o.viewOnly === undefined
      ? follow(engine, host.feed, systemClock, { statusCounts: o.statusCounts })
      : () => undefined
  await host.start()
  host.announce()
  options.onChange()
  let stopped: Promise<void> | null = null
  return {
    host,
    stop: () =>
      (stopped ??= (async () => {
        unfollow()
        for (const unwatch of watched.values()) unwatch()
        watched.clear()
        await host.close()
      })()),
  }
}

/** The engine watches every symbol the rules judged here need (none for a viewer). */
function syncWatches(
  engine: MarketEngine,
  host: AlertHost,
  watched: Map<SymbolKey, () => void>,
): void {
  const wanted = new Set(host.watchedKeys())
  for (const [key, unwatch] of watched) {
    if (wanted.has(key)) continue
    unwatch()
    watched.delete(key)
  }
  for (const key of wanted) if (!watched.has(key)) watched.set(key, engine.watch(key))
}

/**
 * A fire as one line of text: "(late: fired Wed 09:30) (again) while you were away: BTCUSDT is
 * above 90,000 (90,012)".
 */
export function fireText(a: FiredAlert, now: number): string {
  const late = a.late === true ? `(late: fired ${sinceWords(a.at, now)}) ` : ''
  const again = a.replayed === true ? '(again) ' : ''
  return `${late}${again}${a.whileAway ? 'while you were away: ' : ''}${a.message}`
}

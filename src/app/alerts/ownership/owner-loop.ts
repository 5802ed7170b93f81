import type { HeldLease } from '../../../core/persistence/alert-lease'
import { NO_LEASE } from '../../../core/persistence/fence'
import type { AlertRule } from '../../../shared/alerts/alert'
import { isDemo } from '../../../shared/alerts/alert-service'
import { inQuietHours } from '../../../shared/alerts/quiet-hours'
import { AlertLoop } from '../alert-loop'
import type { FolderSettings } from './alert-inputs'
import type { DataStores } from '../../../core/persistence/stores'
import type { Clock } from '../../../core/clock'
import type { FiredAlert } from '../../../shared/alerts/alert'
import type { ServiceRef } from '../../../shared/alerts/alert-service'
import type { SymbolKey } from '../../../shared/markets/market'
import type { LoopGate, TargetSet } from './loop-gate'

/** What of its host a running loop uses (alert-host.ts's options hold more). */
export interface LoopHost {
  stores: DataStores
  clock: Clock
  firedBy: FiredAlert['firedBy']
  /** The service this process's feed runs on now. */
  service: () => ServiceRef
  notify(level: 'info' | 'warning', code: string, message: string): void
  onChange(): void
  /** When each symbol was last priced here: "while you were away" from then. */
  lastSeen: (key: SymbolKey) => number | undefined
}

/**
 * The alert loop of a process that has just taken the folder's alerts (or runs them without a
 * lease): opened from the files on disk, fenced by the lease it holds, then wired to the host's
 * feed and targets. Every process runs it the same way; only the host's options differ.
 */
export function openOwnerLoop(o: {
  host: LoopHost
  /** The lease held (null: the folder cannot hold one, writes are not fenced). */
  held: HeldLease | null
  settings: FolderSettings
  judges: (rule: AlertRule) => boolean
  lost: (why: string) => void
}): Promise<AlertLoop> {
  const { host } = o
  return AlertLoop.open({
    stores: host.stores,
    clock: host.clock,
    fence: o.held ?? NO_LEASE,
    judges: o.judges,
    // Simulated prices never reach a receiver the trader set up for real alerts.
    owes: (target) => !isDemo(host.service()) || !target.startsWith('webhook:'),
    onProblem: (code, message) => host.notify('warning', code, message),
    onLost: o.lost,
    quietNow: () => inQuietHours(o.settings.quietHours, host.clock.now()),
    firedBy: host.firedBy,
  })
}

/**
 * The loop now runs here: the folder's pause, every target of this process, the feed's quotes
 * and bars, "while you were away" since each symbol's last price, and what earlier owners still
 * owe delivered once the host's targets listen.
 */
export function startOwnerLoop(
  loop: AlertLoop,
  ctx: {
    host: LoopHost
    targets: TargetSet
    feed: LoopGate
    settings: FolderSettings
    announced: boolean
  },
): void {
  loop.setPaused(ctx.settings.paused)
  loop.onChange(() => ctx.host.onChange())
  loop.markRestartGap(ctx.host.lastSeen)
  ctx.targets.use(loop)
  ctx.feed.use(loop)
  if (ctx.announced) loop.start()
}

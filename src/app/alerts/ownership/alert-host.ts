import type { TimerHandle } from '../../../core/clock'
import { TickdeskError } from '../../../core/errors'
import {
  AlertLease,
  LEASE_RENEW_MS,
  unwritableWords,
  type HeldLease,
  type LeaseLook,
} from '../../../core/persistence/alert-lease'
import { isLeaseLost } from '../../../core/persistence/fence'
import type { AlertRule, FiredAlert } from '../../../shared/alerts/alert'
import type { AlertOwnerView } from '../../../shared/alerts/alert-owner'
import type { SymbolKey } from '../../../shared/markets/market'
import type { Settings } from '../../../shared/settings'
import type { WebhookSecrets } from '../../secrets/webhook-secrets'
import { WebhookBook } from '../../webhooks/webhook-book'
import type { AlertLoop, AlertTarget } from '../alert-loop'
import { judgedRules, ruleKeys } from '../alert-rule-set'
import { crashPoint } from '../crash-points'
import { judgedOn, mayOwn, notJudgedWords } from '../alert-rule-service'
import { FolderSettings, type AlertInputs } from './alert-inputs'
import { FolderView, type FolderAlerts } from './folder-view'
import { LoopGate, TargetSet } from './loop-gate'
import { openOwnerLoop, startOwnerLoop, type LoopHost } from './owner-loop'
import { ownerView } from './owner-view'
import {
  nextOwnership,
  runsAlerts,
  STARTING,
  type Ownership,
  type OwnershipEvent,
} from './ownership'

/**
 * The one alert host, for every process that may run a data folder's alerts: the app (Electron
 * or the browser host), `tickdesk alerts run` and `tickdesk watch --run-alerts`. It holds the
 * ownership state machine (ownership.ts) and does what each state means: looks at the lease each
 * second, claims it, reads the folder's files and runs the alert loop as a full owner (every rule
 * of its service, every target it has: the desktop where it has one, every webhook, stdout where
 * that is its job), renews the lease, and stops at once when a later epoch takes it. While
 * another process runs the alerts it shows the folder's fires and undelivered list from the
 * files (folder-view.ts) and says who runs them.
 *
 * What differs between processes is passed in: the role the lease names, where rules come from
 * (alert-inputs.ts), its own targets, the service its feed runs on, and how it tells the trader.
 */

/** How often the rules, the settings and the webhooks are read again (another process edits them). */
export const INPUTS_EVERY_TICKS = 5
/** A take-over whose load failed waits this long before it tries again. */
export const LOAD_RETRY_MS = 5_000

export interface AlertHostOptions extends LoopHost {
  /** Who the lease names while this process runs the alerts: "the Tickdesk app". */
  role: string
  inputs: AlertInputs
  /** The folder's settings as read at start (pause, quiet hours, its service). */
  settings: Pick<Settings, 'alertsPaused' | 'quietHours' | 'baseUrl'>
  /** This process's own targets: the desktop where it has one, stdout where that is its job. */
  targets: readonly AlertTarget[]
  webhookSecrets: WebhookSecrets | null
  /** One attempt per webhook delivery (a one-shot command) instead of 15 minutes of retries. */
  webhookGiveUpMs?: number
  /** Resolves once every write of this process's own to the folder (a rule save) has settled. */
  settled?: () => Promise<void>
  /** A fire of the folder this process saw in the files while another one ran the alerts. */
  onViewedFire?(alert: FiredAlert): void
  /**
   * Whether this process may run the folder's alerts (default: by service, alert-rule-service.ts's
   * mayOwn). `tickdesk watch` never does: it only shows them.
   */
  mayOwn?: () => { ok: true } | { ok: false; why: string }
  /** A monotonic clock for the lease (default performance.now). */
  elapsed?: () => number
}

export class AlertHost {
  /** The feed's way in (follow(engine, host.feed)): reaches the loop while this process runs one. */
  readonly feed = new LoopGate()
  readonly webhooks: WebhookBook
  readonly settings: FolderSettings
  private readonly targets = new TargetSet()
  private readonly lease: AlertLease
  private readonly view: FolderView
  private state: Ownership = STARTING
  private held: HeldLease | null = null
  private loop: AlertLoop | null = null
  private announced = false
  private timer: TimerHandle | null = null
  private ticks = 0
  private retryAt = -Infinity
  private queue: Promise<void> = Promise.resolve()
  private told = ''
  /** The last look at the lease: a claim takes the epoch it found next. */
  private looked: LeaseLook | null = null

  constructor(private readonly o: AlertHostOptions) {
    this.settings = new FolderSettings(o.stores.settings, o.settings)
    this.lease = new AlertLease(o.stores.dir, {
      role: o.role,
      clock: o.clock,
      ...(o.elapsed ? { elapsed: o.elapsed } : {}),
    })
    this.view = new FolderView(o.stores)
    for (const target of o.targets) this.targets.addTarget(target)
    this.webhooks = new WebhookBook({
      store: o.stores.webhooks,
      clock: o.clock,
      loop: this.targets,
      onProblem: (code, message) => o.notify('warning', code, message),
      onChange: () => o.onChange(),
      secrets: o.webhookSecrets,
      mayDeliver: () => this.mayDeliver(),
      ...(o.webhookGiveUpMs === undefined ? {} : { giveUpMs: o.webhookGiveUpMs }),
    })
  }

  /** The first look (awaited: a process that may run the alerts runs them before it goes on). */
  async start(): Promise<void> {
    await this.webhooks.sync()
    await this.enqueue(() => this.step())
    this.schedule()
  }

  /** This process's targets listen now (a page, the notifier): what is owed is delivered. */
  announce(): void {
    this.announced = true
    this.loop?.start()
  }

  get ownership(): Ownership {
    return this.state
  }

  /**
   * The rules, lists or settings of this process changed (the app's own edits): the loop judges
   * by them at once (the engine is asked for their symbols next); resolves once saved.
   */
  async inputsChanged(
    settings?: Pick<Settings, 'alertsPaused' | 'quietHours' | 'baseUrl'>,
  ): Promise<void> {
    if (settings) this.settings.take(settings)
    const saved = this.pushInputs()
    await this.enqueue(() => this.checkInputs())
    await saved
  }

  /** Symbols the rules this process judges watch (the engine keeps them priced). */
  watchedKeys(): SymbolKey[] {
    if (this.loop !== null) return this.loop.watchedKeys()
    return ruleKeys(judgedRules(this.o.inputs.rules(), this.o.inputs.lists(), this.judges))
  }

  owner(): AlertOwnerView {
    const mine = this.held?.holder ?? null
    const ctx = {
      mine,
      here: this.o.service(),
      folder: this.settings.folder,
      now: this.o.clock.now(),
    }
    return ownerView(this.state, ctx)
  }

  /** The folder's alerts as this process shows them: its own loop's, or the owner's files. */
  alerts(): FolderAlerts {
    const loop = this.loop
    if (loop === null) return this.view.current
    return { states: loop.states(), history: loop.history(), undelivered: loop.owed.undelivered() }
  }

  clearHistory(): Promise<void> {
    return this.ownerLoop('clear the history').clearHistory()
  }

  retry(fireId: string): Promise<boolean> {
    return this.ownerLoop('retry it').owed.retry(fireId)
  }

  drop(fireId: string): Promise<boolean> {
    return this.ownerLoop('drop it').dropUndelivered(fireId)
  }

  /** webhooks.json changed (the CLI added or removed one): targets follow, gone ones drop owed fires. */
  async syncWebhooks(): Promise<void> {
    await this.webhooks.sync()
    this.loop?.dropGone((name) => this.targetExists(name))
  }

  /** Saves and gives the lease back (the next process takes it at once). */
  async close(): Promise<void> {
    this.o.clock.clearTimeout(this.timer)
    this.timer = null
    await this.enqueue(() => this.dispatch({ kind: 'close' }))
    await this.webhooks.close()
  }

  // ---- the state machine's runner ----------------------------------------------------------

  private readonly judges = (rule: AlertRule): boolean =>
    judgedOn(rule, this.o.service(), this.settings.folder)

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work)
    this.queue = run.catch((e: unknown) =>
      this.o.notify('warning', 'ALERTS_HOST', `the alerts stumbled: ${String(e)}`),
    )
    return this.queue
  }

  private schedule(): void {
    if (this.state.kind === 'closed') return
    this.timer = this.o.clock.setTimeout(() => {
      void this.enqueue(() => this.step()).finally(() => this.schedule())
    }, LEASE_RENEW_MS)
  }

  /** One second's work: renew, or look at the lease; now and then re-read what others edit. */
  private async step(): Promise<void> {
    this.ticks++
    if (this.ticks % INPUTS_EVERY_TICKS === 0) await this.refreshInputs()
    const s = this.state
    if (s.kind === 'owning') this.renew()
    else if (s.kind === 'standby' && this.o.clock.now() >= this.retryAt) await this.look()
    else if (s.kind === 'leaseless' && this.ticks % INPUTS_EVERY_TICKS === 0) await this.look()
    if (!runsAlerts(this.state)) await this.refreshView()
  }

  private async dispatch(event: OwnershipEvent): Promise<void> {
    const before = this.state
    const after = nextOwnership(before, event)
    if (after === before) return
    this.state = after
    await this.enter(before, after)
    this.tell()
    this.o.onChange()
  }

  private async enter(before: Ownership, after: Ownership): Promise<void> {
    switch (after.kind) {
      case 'claiming':
        // A loop run without a lease runs on until a claim holds: a claim the disk refuses again
        // leaves it running as it was, its states and fires in memory.
        if (before.kind !== 'leaseless') this.dropLoop()
        return this.dispatch(this.claim())
      case 'taking':
        return this.dispatch(await this.take())
      case 'owning':
        return this.run(this.loop)
      case 'leaseless':
        this.held = null
        if (this.loop !== null) return
        return this.run(await this.openLoop(null))
      case 'standby':
        return this.standBy(before, after)
      case 'closed':
        return this.shut()
    }
  }

  private async look(): Promise<void> {
    const may = this.eligibility()
    let look
    try {
      look = this.lease.look()
    } catch (e) {
      return this.dispatch({ kind: 'unwritable', why: unwritableWords(e) })
    }
    this.looked = look
    const { free, holder } = look
    await this.dispatch(
      may.ok
        ? { kind: 'looked', free, holder, mayOwn: true }
        : { kind: 'looked', free, holder, mayOwn: false, why: may.why },
    )
  }

  private claim(): OwnershipEvent {
    const look = this.looked
    if (look === null) return { kind: 'claimLost' }
    try {
      const held = this.lease.claim(look)
      if (held === null) return { kind: 'claimLost' }
      this.dropLoop()
      this.held = held
      crashPoint('take-claim')
      held.renew()
      crashPoint('take-lease')
      return { kind: 'claimed', epoch: held.epoch }
    } catch (e) {
      if (isLeaseLost(e)) return { kind: 'claimLost' }
      this.held = null
      return { kind: 'unwritable', why: unwritableWords(e) }
    }
  }

  private async take(): Promise<OwnershipEvent> {
    await this.o.settled?.()
    try {
      this.loop = await this.openLoop(this.held)
    } catch (e) {
      if (isLeaseLost(e)) return { kind: 'lost', why: (e as Error).message }
      return { kind: 'loadFailed', why: String((e as Error).message ?? e) }
    }
    if (!this.loop.running) return { kind: 'lost', why: 'another process took the alerts over' }
    crashPoint('take-load')
    return { kind: 'loaded' }
  }

  private openLoop(held: HeldLease | null): Promise<AlertLoop> {
    return openOwnerLoop({
      host: this.o,
      held,
      settings: this.settings,
      judges: this.judges,
      lost: (why) => void this.enqueue(() => this.dispatch({ kind: 'lost', why })),
    })
  }

  private run(loop: AlertLoop | null): void {
    if (loop === null) return
    this.loop = loop
    startOwnerLoop(loop, {
      host: this.o,
      targets: this.targets,
      feed: this.feed,
      settings: this.settings,
      announced: this.announced,
    })
    loop.dropGone((name) => this.targetExists(name))
  }

  private async standBy(before: Ownership, after: Ownership & { kind: 'standby' }): Promise<void> {
    const loop = this.loop
    const held = this.held
    this.dropLoop()
    if (before.kind === 'owning' && after.why.kind === 'ineligible') {
      await loop?.close()
      held?.release()
    } else if (after.why.kind === 'loadFailed') {
      held?.release()
      this.retryAt = this.o.clock.now() + LOAD_RETRY_MS
    }
    if (after.why.kind !== 'held') this.held = null
    await this.refreshView()
  }

  private async shut(): Promise<void> {
    const loop = this.loop
    this.feed.use(null)
    this.targets.use(null)
    this.loop = null
    await loop?.close()
    this.held?.release()
    this.held = null
  }

  /** The loop stops judging and writing at once; the targets and the feed let go of it. */
  private dropLoop(): void {
    this.feed.use(null)
    this.targets.use(null)
    this.loop?.stop()
    this.loop = null
  }

  private renew(): void {
    try {
      this.held?.renew()
    } catch (e) {
      if (isLeaseLost(e)) {
        void this.enqueue(() => this.dispatch({ kind: 'lost', why: (e as Error).message }))
        return
      }
      this.o.notify(
        'warning',
        'ALERTS_LEASE_RENEW',
        `Could not renew the alerts lease (${unwritableWords(e)}): another process on this folder may start running the alerts too.`,
      )
    }
  }

  private mayDeliver(): boolean {
    if (this.state.kind === 'leaseless') return true
    if (this.state.kind !== 'owning' || this.held === null) return false
    try {
      this.held.check()
      return true
    } catch (e) {
      if (isLeaseLost(e))
        void this.enqueue(() => this.dispatch({ kind: 'lost', why: (e as Error).message }))
      return false
    }
  }

  private async refreshInputs(): Promise<void> {
    const rules = await this.o.inputs.refresh()
    const settings = await this.settings.refresh()
    await this.syncWebhooks()
    if (!rules && !settings) return
    await this.pushInputs()
    await this.checkInputs()
  }

  /** The loop takes the rules, lists and pause now; resolves once its states are saved. */
  private pushInputs(): Promise<void> {
    const loop = this.loop
    if (loop === null) return Promise.resolve()
    loop.setPaused(this.settings.paused)
    loop.setLists(this.o.inputs.lists())
    return loop.setRules([...this.o.inputs.rules()])
  }

  /** Whether this process may still run the alerts; the panel and the notice follow. */
  private async checkInputs(): Promise<void> {
    if (this.state.kind === 'owning') {
      const may = this.eligibility()
      if (!may.ok) await this.dispatch({ kind: 'ineligible', why: may.why })
    }
    this.tell()
    this.o.onChange()
  }

  private async refreshView(): Promise<void> {
    const read = await this.view.refresh()
    if (read === null) return
    for (const alert of read.fresh) this.o.onViewedFire?.(alert)
    this.o.onChange()
  }

  private eligibility(): { ok: true } | { ok: false; why: string } {
    return (
      this.o.mayOwn?.() ?? mayOwn(this.o.inputs.rules(), this.o.service(), this.settings.folder)
    )
  }

  private targetExists(name: string): boolean {
    return name === 'desktop' || name === 'stdout' || this.targets.has(name)
  }

  private ownerLoop(what: string): AlertLoop {
    if (this.loop !== null) return this.loop
    throw new TickdeskError({
      code: 'NOT_OWNER',
      message: `${capital(this.owner().words)}: ${what} there.`,
    })
  }

  /** Says who runs the alerts (and which rules are not judged here) when that changed. */
  private tell(): void {
    if (this.state.kind === 'closed') return
    const view = this.owner()
    const other = runsAlerts(this.state)
      ? notJudgedWords(this.o.inputs.rules(), this.o.service(), this.settings.folder)
      : null
    const words = other === null ? view.words : `${view.words}; ${other}`
    // Running them from the start, alone and on every rule, is no news; anything else is.
    if (this.told === '' && view.state === 'owner' && other === null) return
    if (words === this.told) return
    this.told = words
    const warn =
      view.state === 'leaseless' ||
      (this.state.kind === 'standby' && this.state.why.kind === 'loadFailed')
    this.o.notify(warn ? 'warning' : 'info', OWNER_NOTICE, capital(words))
  }
}

/** The notice that says who runs the alerts (one, replaced as it changes). */
export const OWNER_NOTICE = 'ALERTS_OWNER'

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

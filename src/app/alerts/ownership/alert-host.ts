import type { TimerHandle } from '../../../core/clock'
import { TickdeskError } from '../../../core/errors'
import { AlertLease, LEASE_RENEW_MS } from '../../../core/persistence/alert-lease'
import type { AlertRule, FiredAlert } from '../../../shared/alerts/alert'
import type { AlertOwnerView } from '../../../shared/alerts/alert-owner'
import type { SymbolKey } from '../../../shared/markets/market'
import type { Settings } from '../../../shared/settings'
import type { WebhookSecrets } from '../../secrets/webhook-secrets'
import { WebhookBook } from '../../webhooks/webhook-book'
import type { AlertLoop, AlertTarget } from '../alert-loop'
import { judgedRules, ruleKeys } from '../alert-rule-set'
import { judgedOn, mayOwn, notJudgedWords } from '../alert-rule-service'
import { FolderSettings, type AlertInputs } from './alert-inputs'
import { FolderView, type FolderAlerts } from './folder-view'
import { LoopGate, TargetSet } from './loop-gate'
import type { LoopHost } from './owner-loop'
import { ownerView } from './owner-view'
import { runsAlerts, type Ownership } from './ownership'
import { OwnershipRunner } from './ownership-runner'

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
  private readonly view: FolderView
  private readonly runner: OwnershipRunner
  private announced = false
  private timer: TimerHandle | null = null
  private ticks = 0
  private told = ''

  constructor(private readonly o: AlertHostOptions) {
    this.settings = new FolderSettings(o.stores.settings, o.settings)
    this.view = new FolderView(o.stores)
    this.runner = new OwnershipRunner({
      host: o,
      lease: new AlertLease(o.stores.dir, {
        role: o.role,
        clock: o.clock,
        ...(o.elapsed ? { elapsed: o.elapsed } : {}),
      }),
      settings: this.settings,
      judges: this.judges,
      feed: this.feed,
      targets: this.targets,
      announced: () => this.announced,
      targetExists: (name) => this.targetExists(name),
      entered: () => {
        this.tell()
        o.onChange()
      },
      refreshView: () => this.refreshView(),
    })
    for (const target of o.targets) this.targets.addTarget(target)
    this.webhooks = new WebhookBook({
      store: o.stores.webhooks,
      clock: o.clock,
      loop: this.targets,
      onProblem: (code, message) => o.notify('warning', code, message),
      onChange: () => o.onChange(),
      secrets: o.webhookSecrets,
      mayDeliver: () => this.runner.mayDeliver(),
      ...(o.webhookGiveUpMs === undefined ? {} : { giveUpMs: o.webhookGiveUpMs }),
    })
  }

  /** The first look (awaited: a process that may run the alerts runs them before it goes on). */
  async start(): Promise<void> {
    await this.webhooks.sync()
    await this.runner.enqueue(() => this.step())
    this.schedule()
  }

  /** This process's targets listen now (a page, the notifier): what is owed is delivered. */
  announce(): void {
    this.announced = true
    this.runner.loop?.start()
  }

  get ownership(): Ownership {
    return this.runner.state
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
    await this.runner.enqueue(() => this.checkInputs())
    await saved
  }

  /** Symbols the rules this process judges watch (the engine keeps them priced). */
  watchedKeys(): SymbolKey[] {
    if (this.runner.loop !== null) return this.runner.loop.watchedKeys()
    return ruleKeys(judgedRules(this.o.inputs.rules(), this.o.inputs.lists(), this.judges))
  }

  owner(): AlertOwnerView {
    const mine = this.runner.held?.holder ?? null
    const ctx = {
      mine,
      here: this.o.service(),
      folder: this.settings.folder,
      now: this.o.clock.now(),
    }
    return ownerView(this.runner.state, ctx)
  }

  /** The folder's alerts as this process shows them: its own loop's, or the owner's files. */
  alerts(): FolderAlerts {
    const loop = this.runner.loop
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
    this.runner.loop?.dropGone((name) => this.targetExists(name))
  }

  /** Saves and gives the lease back (the next process takes it at once). */
  async close(): Promise<void> {
    this.o.clock.clearTimeout(this.timer)
    this.timer = null
    await this.runner.enqueue(() => this.runner.dispatch({ kind: 'close' }))
    await this.webhooks.close()
  }

  // ---- the state machine's runner ----------------------------------------------------------

  private readonly judges = (rule: AlertRule): boolean =>
    judgedOn(rule, this.o.service(), this.settings.folder)

  private schedule(): void {
    if (this.runner.state.kind === 'closed') return
    this.timer = this.o.clock.setTimeout(() => {
      void this.runner.enqueue(() => this.step()).finally(() => this.schedule())
    }, LEASE_RENEW_MS)
  }

  /** One second's work: renew, or look at the lease; now and then re-read what others edit. */
  private async step(): Promise<void> {
    this.ticks++
    if (this.ticks % INPUTS_EVERY_TICKS === 0) await this.refreshInputs()
    const { state, retryAt } = this.runner
    const look = (): Promise<void> => this.runner.look(this.eligibility())
    if (state.kind === 'owning') this.runner.renew()
    else if (state.kind === 'standby' && this.o.clock.now() >= retryAt) await look()
    else if (state.kind === 'leaseless' && this.ticks % INPUTS_EVERY_TICKS === 0) await look()
    if (!runsAlerts(this.runner.state)) await this.refreshView()
  }

  private async refreshInputs(): Promise<void> {
    const rules = await this.o.inputs.refresh()
    const settings = await this.settings.refresh()
    // A pause set in another process holds from the moment it is read, not after the webhooks'
    // file is read too: a quote judged in between would be told to the targets.
    if (settings) this.runner.loop?.setPaused(this.settings.paused)
    await this.syncWebhooks()
    if (!rules && !settings) return
    await this.pushInputs()
    await this.checkInputs()
  }

  /** The loop takes the rules, lists and pause now; resolves once its states are saved. */
  private pushInputs(): Promise<void> {
    const loop = this.runner.loop
    if (loop === null) return Promise.resolve()
    loop.setPaused(this.settings.paused)
    loop.setLists(this.o.inputs.lists())
    return loop.setRules([...this.o.inputs.rules()])
  }

  /** Whether this process may still run the alerts; the panel and the notice follow. */
  private async checkInputs(): Promise<void> {
    if (this.runner.state.kind === 'owning') {
      const may = this.eligibility()
      if (!may.ok) await this.runner.dispatch({ kind: 'ineligible', why: may.why })
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
    if (this.runner.loop !== null) return this.runner.loop
    throw new TickdeskError({
      code: 'NOT_OWNER',
      message: `${capital(this.owner().words)}: ${what} there.`,
    })
  }

  /** Says who runs the alerts (and which rules are not judged here) when that changed. */
  private tell(): void {
    const state = this.runner.state
    if (state.kind === 'closed') return
    const view = this.owner()
    const other = runsAlerts(state)
      ? notJudgedWords(this.o.inputs.rules(), this.o.service(), this.settings.folder)
      : null
    const words = other === null ? view.words : `${view.words}; ${other}`
    // Running them from the start, alone and on every rule, is no news; anything else is.
    if (this.told === '' && view.state === 'owner' && other === null) return
    if (words === this.told) return
    this.told = words
    const warn =
      view.state === 'leaseless' || (state.kind === 'standby' && state.why.kind === 'loadFailed')
    this.o.notify(warn ? 'warning' : 'info', OWNER_NOTICE, capital(words))
  }
}

/** The notice that says who runs the alerts (one, replaced as it changes). */
export const OWNER_NOTICE = 'ALERTS_OWNER'

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

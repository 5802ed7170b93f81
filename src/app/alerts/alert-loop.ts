import { AlertEngine } from '../../core/alerts/alert-engine'
import { barsNeeded } from '../../core/alerts/alert-ma'
import type { BarNeed } from '../../core/bars/bar-backfill'
import type { Clock, TimerHandle } from '../../core/clock'
import type { StoreProblem } from '../../core/persistence/json-store'
import { ThrottledSave } from '../../core/persistence/throttled-save'
import type { DataStores } from '../../core/persistence/stores'
import type { AlertRule, AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import { expandRules } from '../../shared/alerts/alert-list'
import type { AlertBars } from './alert-follow'
import type { RuleSource } from './alert-rule-source'
import { replayJournal, restartGapSince, withDropped } from './alert-replay'
import { AlertOutbox, type AlertTarget } from './alert-outbox'
import type { Watchlist } from '../../shared/watchlist'
import type { SymbolKey } from '../../shared/markets/market'
import type { Quote } from '../../shared/quote'

/**
 * The alert loop: the one place alerts are evaluated, recorded and announced, for every host
 * (the app in Electron or the browser host, `tickdesk watch`, `tickdesk alerts run`).
 *
 * The alert area, in the order a fire goes through it (src/app unless named):
 *   alert-duty.ts, alert-loop-lock.ts  one loop per data folder: who holds alerts.lock runs it
 *   alert-follow.ts                    follow(engine): quotes evaluated, gaps marked, bars
 *   alert-loop.ts (here)               rules (list rules expanded, filtered), states, history,
 *                                      saves; composes the parts below
 *   alert-rule-source.ts               rules edited here (the app) or read from the file (CLI)
 *   alert-outbox.ts                    the fire journal (core/persistence/fire-journal.ts) and
 *                                      delivery once per target; webhook-*.ts: webhook targets
 *   src/shared/alerts/fire-json.ts            the one public JSON shape of a fire
 *   src/core/alerts/alert-engine.ts           conditions and rule states (pure)
 * It may import src/core, src/shared and src/util; hosts import it, never the other way round.
 * Promises, with the outcome of a crash at each step: docs/alerts-guarantees.md.
 * Tests: src/app/alert-*.spec.ts and webhook-sender.spec.ts (a real temp folder, a FakeClock);
 * test/faults/alerts-*.spec.ts (real processes on the simulator: kill -9, SIGSTOP, two hosts).
 */

export type { AlertTarget, UndeliveredFire } from './alert-outbox'
export type { AlertBars } from './alert-follow'

export const ALERT_SAVE_EVERY_MS = 500
/** Rule states (last price seen, and when) saved this often: a restart knows since when it was away. */
export const SEEN_SAVE_EVERY_MS = 60_000

export interface AlertLoopOptions {
  stores: Pick<DataStores, 'dir' | 'alerts' | 'alertHistory' | 'watchlists'>
  clock: Clock
  /** Where the rules come from, and so what a save writes back (alert-rule-source.ts). */
  rules: RuleSource
  /** Which of the file's rules this loop evaluates (watch: the symbols it was given). */
  filter?: (rule: AlertRule) => boolean
  /** A damaged file or a failed save, in words for the trader. */
  onProblem: (code: string, message: string) => void
  /** Whether now is in the trader's quiet hours: a fire is then marked quiet (no sound or pop). */
  quietNow?: () => boolean
  /** Written on each fire, so the app can say what the runner fired while it was closed. */
  firedBy: FiredAlert['firedBy']
  /**
   * Another process runs this folder's alerts (alert-duty.ts): rules can be read and edited, but
   * the journal is not touched and nothing is evaluated or announced until activate().
   */
  standby?: boolean
  newId?: () => string
}

export class AlertLoop {
  private readonly engine: AlertEngine
  private readonly outbox: AlertOutbox
  private readonly saver: ThrottledSave<AlertsSnapshot>
  private readonly listeners = new Set<() => void>()
  private fileRules: AlertRule[] = []
  /** The rules as this loop last read or wrote them: the base of a merge with a CLI's edit. */
  private diskRules: AlertRule[] = []
  /** The watchlists list-wide rules follow (the app sets them as they change; CLI hosts re-read). */
  private lists: readonly Watchlist[] = []
  private paused = false
  /** Holds the folder's alerts: evaluates, journals, announces (see standby). */
  private active: boolean
  private activating = false
  private seenTimer: TimerHandle | null = null
  private market: AlertBars | null = null

  private constructor(private readonly opts: AlertLoopOptions) {
    this.active = opts.standby !== true
    this.engine = new AlertEngine({
      clock: opts.clock,
      firedBy: opts.firedBy,
      ...(opts.newId ? { newId: opts.newId } : {}),
    })
    this.outbox = new AlertOutbox(opts.stores.dir, {
      problem: (code, message) => this.problem(code, message),
      changed: () => this.changed(),
      now: () => opts.clock.now(),
    })
    this.saver = new ThrottledSave({
      clock: opts.clock,
      intervalMs: ALERT_SAVE_EVERY_MS,
      save: (snapshot) => this.save(snapshot),
      onError: (e) => this.problem('STORAGE_ERROR', `Could not save alert states: ${String(e)}`),
    })
  }

  /** Reads the rules, their states and history, and replays the fire journal over them. */
  static async open(opts: AlertLoopOptions): Promise<AlertLoop> {
    const loop = new AlertLoop(opts)
    await loop.load()
    return loop
  }

  private async load(): Promise<void> {
    const { stores } = this.opts
    const file = await stores.alerts.load()
    this.report(file.problem)
    this.lists = (await stores.watchlists.load()).value.watchlists
    const history = await stores.alertHistory.load()
    this.report(history.problem)
    const read = this.active ? this.outbox.readJournal() : { fires: [], skipped: 0 }
    const replayed = replayJournal(
      { states: file.value.states, history: history.value },
      read.fires,
    )
    this.outbox.continueFrom(replayed.lastSeq)
    this.fileRules = this.diskRules = file.value.rules
    this.engine.setRules(this.evaluated(file.value.rules), replayed.states)
    this.engine.setHistory(replayed.history)
    if (read.fires.length > 0) {
      // The files catch up with the journal before it is compacted to what is still owed.
      this.saver.request(() => this.snapshot())
      await this.saver.flush()
    }
  }

  get rules(): AlertRule[] {
    return this.fileRules
  }

  /**
   * The engine whose bars moving-average rules read (the host's, or a new one after a feed
   * switch); the history they lack is asked for once, and again whenever the rules change.
   */
  attachBars(market: AlertBars | null): void {
    this.market = market
    this.engine.setBarSource(
      market === null ? null : (key, interval, limit) => market.candles.bars(key, interval, limit),
    )
    this.askBars()
  }

  /** Registered before start(); start() delivers what a previous run still owed them. */
  addTarget(target: AlertTarget): void {
    this.outbox.addTarget(target)
  }

  removeTarget(name: string): void {
    this.outbox.removeTarget(name)
  }

  start(): void {
    this.outbox.start()
  }

  /**
   * This process took the folder's alerts: the previous owner's files and journal are read afresh
   * (no quote judged meanwhile, on older states) and what it still owed is delivered.
   */
  async activate(): Promise<void> {
    this.active = this.activating = true
    await this.load().finally(() => (this.activating = false))
    this.outbox.deliverOwedToAll()
  }

  /** Another process took the folder's alerts: stop evaluating and announcing at once. */
  async deactivate(): Promise<void> {
    await this.saver.flush()
    this.active = false
    this.outbox.forget()
  }

  /**
   * Nothing ran (or the feed was down) since `since`: the first fresh quote per symbol that fires
   * is marked "while you were away" from then. Per symbol after a restart: the time of the last
   * price seen for it (none for a symbol never seen: a rule met at once "is above", not "was
   * crossed while you were away").
   */
  markGap(since: number | ((key: SymbolKey) => number | undefined)): void {
    this.engine.markGap(since)
  }

  /**
   * At start: nothing ran since each symbol's last price seen, by this host's cache or by the
   * rule states any host saved (the later of the two).
   */
  markRestartGap(cachedAt: (key: SymbolKey) => number | undefined): void {
    const keys = new Map(this.evaluated(this.fileRules).map((r) => [r.id, r.key]))
    this.engine.markGap(restartGapSince(this.engine.states(), keys, cachedAt))
  }

  /** Every merged quote; only a fresh one (stream, poll, gap fill) can fire. */
  evaluate(quote: Quote): void {
    if (!this.active || this.activating) return
    const fires = this.engine.evaluate(quote)
    this.seenTimer ??= this.opts.clock.setTimeout(() => {
      this.seenTimer = null
      this.saver.request(() => this.snapshot())
    }, SEEN_SAVE_EVERY_MS)
    if (fires.length === 0) {
      // A moving-average rule's bars grew while it waits for them: the hosts show "waiting for
      // bars (n of 20)" until it can fire, and `alerts list` reads it from the file.
      if (this.engine.takeWarmupMoved()) this.changed()
      return
    }
    // Decided once, at the fire, and kept with it: a replay after a crash stays as quiet.
    if (this.opts.quietNow?.() === true) for (const alert of fires) alert.quiet = true
    // No await between the decision and the journal: a fire is durable before it is announced.
    this.outbox.post(
      fires,
      (id, seq) => {
        this.engine.stampSeq(id, seq)
        return this.engine.stateOf(id) as AlertRuleState
      },
      this.paused,
    )
    this.changed()
  }

  /** The app's rules changed (add, remove, switch): saved at once. */
  async setRules(rules: AlertRule[]): Promise<void> {
    this.fileRules = rules
    this.engine.setRules(this.evaluated(rules), this.engine.states())
    this.rearmOwed()
    this.askBars()
    this.saver.request(() => this.snapshot())
    await this.saver.flush()
  }

  /**
   * The watchlists changed (the app): list-wide rules follow, a symbol added is armed afresh, a
   * symbol removed stops being evaluated; the other symbols keep their state.
   */
  setLists(lists: readonly Watchlist[]): void {
    this.lists = lists
    this.engine.setRules(this.evaluated(this.fileRules), this.engine.states())
    this.askBars()
  }

  /**
   * CLI hosts: rules another process changed (`alerts add` while the runner runs), and the
   * watchlists list-wide rules follow.
   */
  async reloadRules(): Promise<void> {
    const file = await this.opts.stores.alerts.load()
    if (file.problem) return
    const lists = await this.opts.stores.watchlists.load()
    const listsChanged = JSON.stringify(lists.value.watchlists) !== JSON.stringify(this.lists)
    if (!listsChanged && JSON.stringify(file.value.rules) === JSON.stringify(this.fileRules)) return
    this.fileRules = file.value.rules
    if (!lists.problem) this.lists = lists.value.watchlists
    this.engine.setRules(this.evaluated(file.value.rules), this.engine.states())
    this.rearmOwed()
    this.askBars()
  }

  /** Paused: rules keep evaluating and fires are kept in history, but no target hears of them. */
  setPaused(paused: boolean): void {
    this.paused = paused
  }

  states(): AlertRuleState[] {
    return this.engine.states()
  }

  history(): FiredAlert[] {
    return this.engine.history()
  }

  async clearHistory(): Promise<void> {
    this.engine.clearHistory()
    this.saver.request(() => this.snapshot())
    await this.saver.flush()
  }

  /** Fires a webhook gave up on (still owed): undelivered() lists them, retry(fireId) tries again. */
  get owed(): Pick<AlertOutbox, 'undelivered' | 'retry'> {
    return this.outbox
  }

  /** The trader drops it: owed no more, and its history entry says for which target and why. */
  async dropUndelivered(fireId: string): Promise<boolean> {
    const alert = this.outbox.drop(fireId, this.opts.clock.now())
    if (alert === null) return false
    this.engine.setHistory(withDropped(this.engine.history(), alert))
    this.saver.request(() => this.snapshot())
    await this.saver.flush()
    return true
  }

  watchedKeys(): SymbolKey[] {
    return this.engine.watchedKeys()
  }

  /** Called after a fire (states and history changed) or a rule's bar count moved. */
  onChange(cb: () => void): () => void {
    this.listeners.add(cb)
    return () => this.listeners.delete(cb)
  }

  /** Saves what is pending and waits for it. */
  async close(): Promise<void> {
    this.opts.clock.clearTimeout(this.seenTimer)
    this.seenTimer = null
    this.saver.request(() => this.snapshot())
    await this.saver.flush()
  }

  // ---- inside ------------------------------------------------------------------------------

  private rearmOwed(): void {
    this.outbox.rearm((id) => this.engine.stateOf(id))
  }

  private changed(): void {
    this.saver.request(() => this.snapshot())
    for (const cb of this.listeners) cb()
  }

  private askBars(): void {
    if (this.market === null) return
    const needs: BarNeed[] = []
    for (const r of this.evaluated(this.fileRules)) {
      const c = r.condition
      if (c.kind === 'maCross' && r.enabled)
        needs.push({ key: r.key, interval: c.interval, count: barsNeeded(c.ma, c.period) })
    }
    this.market.backfillBars(needs)
  }

  /** The concrete rules: list rules expanded to their symbols now, then this host's filter. */
  private evaluated(rules: AlertRule[]): AlertRule[] {
    const members = new Map(this.lists.map((l) => [l.id, l.symbols]))
    const concrete = expandRules(rules, (id) => members.get(id))
    const filter = this.opts.filter
    return filter ? concrete.filter(filter) : concrete
  }

  private snapshot(): AlertsSnapshot {
    return {
      rules: this.fileRules,
      states: this.engine.states(),
      history: this.engine.history(),
      seq: this.outbox.lastSeq,
    }
  }

  private async save(s: AlertsSnapshot): Promise<void> {
    let file = await this.opts.rules.toSave(
      { rules: s.rules, states: s.states },
      {
        alerts: this.opts.stores.alerts,
        diskRules: this.diskRules,
        adopt: (rules) => {
          this.fileRules = rules
          this.engine.setRules(this.evaluated(rules), this.engine.states())
          this.rearmOwed()
          this.askBars()
          return this.engine.states()
        },
      },
    )
    if (!this.active) {
      // States and history are the owner's: a stale copy written over them could re-arm a
      // once-alert it fired. A standby loop saves only its rule edits.
      const latest = await this.opts.stores.alerts.load()
      file = { rules: file.rules, states: latest.value.states }
    }
    const results = await Promise.allSettled([
      this.active ? this.opts.stores.alertHistory.save(s.history) : Promise.resolve(),
      this.opts.stores.alerts.save(file),
    ])
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    this.diskRules = file.rules
    // The journal is the owner's: a standby loop never rewrites it.
    if (this.active) this.outbox.compact(s.seq)
  }

  private report(p: StoreProblem | null): void {
    if (p) this.problem(p.code, p.message)
  }

  private problem(code: string, message: string): void {
    this.opts.onProblem(code, message)
  }
}

interface AlertsSnapshot {
  rules: AlertRule[]
  states: AlertRuleState[]
  history: FiredAlert[]
  seq: number
}

import { AlertEngine } from '../core/alert-engine'
import { barsNeeded } from '../core/alert-ma'
import type { BarNeed } from '../core/bar-backfill'
import type { Bar, Interval } from '../shared/quote'
import type { Clock, TimerHandle } from '../core/clock'
import { FireJournal, type JournalFire } from '../core/persistence/fire-journal'
import type { StoreProblem } from '../core/persistence/json-store'
import { ThrottledSave } from '../core/persistence/throttled-save'
import type { AlertsFile, DataStores } from '../core/persistence/stores'
import type { AlertRule, AlertRuleState, FiredAlert } from '../shared/alert'
import { expandRules, parentRuleId } from '../shared/alert-list'
import { mergeRules } from './alert-rules-merge'
import type { Watchlist } from '../shared/watchlist'
import type { SymbolKey } from '../shared/market'
import type { Quote } from '../shared/quote'

/**
 * The one alert loop every host runs (`tickdesk watch`, `tickdesk alerts run`, the browser host
 * and Electron through AppService): rules from the data folder, evaluated on every fresh quote,
 * each fire made durable in the fire journal before any target hears of it, and announced to
 * each target exactly once by fire id. A fire a target did not take before a crash is delivered
 * to it at the next start with the same id (late, never lost, never twice).
 *
 * Targets are what announce a fire: stdout for `watch --json`, the desktop notification, a
 * webhook. Each fire remembers which targets it was owed to when it fired, so a fire from the
 * app is not printed by a later `tickdesk watch`, and one owed to a webhook is retried by whichever
 * host has that webhook.
 */

export const ALERT_SAVE_EVERY_MS = 500
/**
 * While prices move and nothing fires, the rule states (last price seen, and when) are saved this
 * often, so a restart after a crash knows since when it was away.
 */
export const SEEN_SAVE_EVERY_MS = 60_000

/** Where moving-average rules read bars, and ask once for the history they lack (the engine). */
export interface AlertBars {
  candles: { bars(key: SymbolKey, interval: Interval, limit: number): Bar[] }
  backfillBars(needs: readonly BarNeed[]): void
}

export interface AlertTarget {
  readonly name: string
  /** Resolves (or returns) once the target took the fire; a rejection leaves it owed. */
  deliver(alert: FiredAlert): void | Promise<void>
}

export interface AlertLoopOptions {
  stores: Pick<DataStores, 'dir' | 'alerts' | 'alertHistory' | 'watchlists'>
  clock: Clock
  /**
   * true: this host edits the rules (the app) and its rule list is saved as is. false (CLI
   * hosts): the file's rules are re-read before each save, so rules added elsewhere survive.
   */
  ownsRules: boolean
  /** Which of the file's rules this loop evaluates (watch: the symbols it was given). */
  filter?: (rule: AlertRule) => boolean
  /** A damaged file or a failed save, in words for the trader. */
  onProblem: (code: string, message: string) => void
  /** Whether now is in the trader's quiet hours: a fire is then marked quiet (no sound or pop). */
  quietNow?: () => boolean
  /**
   * ownsRules only: a CLI command changed the rules file since this loop last read or wrote it
   * and the change was merged in at a save (alert-rules-merge.ts), before the host's own look at
   * the file saw it; the host shows these rules.
   */
  onRulesMerged?: (rules: AlertRule[]) => void
  /** Written on each fire, so the app can say what the runner fired while it was closed. */
  firedBy: FiredAlert['firedBy']
  /**
   * Opened while another process runs this folder's alerts (alert-duty.ts): rules, states and
   * history are read and rules can be edited, but the fire journal is neither read nor touched
   * and nothing is evaluated or announced until activate().
   */
  standby?: boolean
  newId?: () => string
}

interface JournalEntry extends JournalFire {
  /** Order of firing in this run (0: read from the journal at start). */
  seq: number
}

export class AlertLoop {
  private readonly engine: AlertEngine
  private readonly journal: FireJournal
  private readonly targets = new Map<string, AlertTarget>()
  private readonly saver: ThrottledSave<AlertsSnapshot>
  private readonly listeners = new Set<() => void>()
  /** Fires since the journal was last compacted, and older ones still owed to a target. */
  private entries: JournalEntry[] = []
  private seq = 0
  private fileRules: AlertRule[] = []
  /** The rules as this loop last read or wrote them: the base of a merge with a CLI's edit. */
  private diskRules: AlertRule[] = []
  /** The watchlists list-wide rules follow (the app sets them as they change; CLI hosts re-read). */
  private lists: readonly Watchlist[] = []
  private paused = false
  private started = false
  /** Holds the folder's alerts: evaluates, journals, announces (see standby). */
  private active: boolean
  private seenTimer: TimerHandle | null = null
  private market: AlertBars | null = null

  private constructor(private readonly opts: AlertLoopOptions) {
    this.active = opts.standby !== true
    this.engine = new AlertEngine({
      clock: opts.clock,
      firedBy: opts.firedBy,
      ...(opts.newId ? { newId: opts.newId } : {}),
    })
    this.journal = new FireJournal(opts.stores.dir)
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
    const read = this.active ? this.journal.read() : { fires: [], skipped: 0 }
    if (read.skipped > 0)
      this.problem(
        'ALERT_JOURNAL_DAMAGED',
        `${read.skipped} line(s) of the alert fire journal could not be read (a crash mid-write); the rest was kept.`,
      )
    const states = new Map(file.value.states.map((s) => [s.ruleId, s]))
    const fired = history.value.slice()
    const inHistory = new Set(fired.map((a) => a.id))
    for (const f of read.fires) {
      // The journal is newer than the files whenever it holds a fire they do not.
      const known = states.get(f.state.ruleId)
      if (known === undefined || (known.lastFiredAt ?? -Infinity) <= (f.state.lastFiredAt ?? 0))
        states.set(f.state.ruleId, f.state)
      if (!inHistory.has(f.alert.id)) {
        fired.push(f.alert)
        inHistory.add(f.alert.id)
      }
    }
    fired.sort((a, b) => a.at - b.at)
    this.fileRules = this.diskRules = file.value.rules
    this.engine.setRules(this.evaluated(file.value.rules), [...states.values()])
    this.engine.setHistory(fired)
    // Whatever its age: a fire a webhook gave up on is still owed to it (issue 37).
    this.entries = read.fires.map((f) => ({ ...f, seq: 0 }))
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
    this.targets.set(target.name, target)
    if (this.started) this.deliverOwed(target)
  }

  removeTarget(name: string): void {
    this.targets.delete(name)
  }

  start(): void {
    this.started = true
    for (const target of this.targets.values()) this.deliverOwed(target)
  }

  /**
   * This process now runs the folder's alerts (it took the lock): the files and the journal the
   * previous owner left are read afresh and what it still owed is delivered (once started).
   */
  async activate(): Promise<void> {
    this.active = true
    await this.load()
    if (this.started) for (const target of this.targets.values()) this.deliverOwed(target)
  }

  /** Another process took the folder's alerts: stop evaluating and announcing at once. */
  async deactivate(): Promise<void> {
    await this.saver.flush()
    this.active = false
    this.entries = []
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
    const seen = new Map<SymbolKey, number>()
    const rules = new Map(this.evaluated(this.fileRules).map((r) => [r.id, r.key]))
    for (const s of this.engine.states()) {
      const key = rules.get(s.ruleId)
      if (key === undefined || s.lastSeenAt === null) continue
      seen.set(key, Math.max(seen.get(key) ?? 0, s.lastSeenAt))
    }
    this.engine.markGap((key) => {
      const a = cachedAt(key)
      const b = seen.get(key)
      return a === undefined ? b : b === undefined ? a : Math.max(a, b)
    })
  }

  /** Every merged quote; only a fresh one (stream, poll, gap fill) can fire. */
  evaluate(quote: Quote): void {
    if (!this.active) return
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
    const owed = this.paused ? [] : [...this.targets.keys()]
    const entries = fires.map((alert) => ({
      alert,
      state: this.engine.stateOf(alert.ruleId) as AlertRuleState,
      done: new Set<string>(),
      tried: new Set<string>(),
      seq: ++this.seq,
      owed,
    }))
    try {
      this.journal.fired(entries)
    } catch (e) {
      // A full disk must not swallow an alert: announce it anyway and say it may repeat.
      this.problem(
        'ALERT_JOURNAL_WRITE',
        `Could not record a fired alert on disk (${String(e)}); it is announced, but may be announced again after a crash.`,
      )
    }
    this.entries.push(...entries)
    for (const entry of entries) for (const name of owed) this.deliverTo(entry, name)
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

  /**
   * A rule armed afresh (its level moved) while a fire of it is still owed to a target (a webhook
   * that is down): the journal's copy of its state after that fire would bring "triggered" back
   * at the next start, so the copy follows the rule.
   */
  private rearmOwed(): void {
    let moved = false
    for (const entry of this.entries) {
      const now = this.engine.stateOf(entry.state.ruleId)
      if (now === null || now.lastFiredAt !== null || entry.state.lastFiredAt === null) continue
      entry.state = now
      moved = true
    }
    if (!moved) return
    try {
      this.journal.rewrite(this.entries)
    } catch {
      // At worst the moved rule reads "triggered" again after a crash; the fire is kept.
    }
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

  private deliverOwed(target: AlertTarget): void {
    if (!this.active) return
    for (const entry of this.entries)
      if (entry.owed.includes(target.name) && !entry.done.has(target.name))
        this.deliverTo(entry, target.name)
  }

  private deliverTo(entry: JournalEntry, name: string): void {
    const target = this.targets.get(name)
    if (target === undefined) return
    // Handed to this target before (a run killed before its done record, a webhook that gave
    // up): it may have it, so this delivery says it is a replay, and the history keeps that.
    const replayed = entry.tried.has(name)
    if (replayed && entry.alert.replayed !== true) {
      entry.alert.replayed = true
      this.changed()
    }
    if (!replayed) {
      entry.tried.add(name)
      try {
        this.journal.tried(entry.alert.id, name)
      } catch {
        // Unrecorded, a repeat after a crash would not say it is one; the fire itself is on disk.
      }
    }
    const took = (): void => {
      entry.done.add(name)
      try {
        this.journal.done(entry.alert.id, name)
      } catch {
        // Only costs a repeat (same fire id) after a crash; the fire itself is on disk.
      }
    }
    let result: void | Promise<void>
    try {
      // Per target: the history's copy says a replay happened somewhere; this one says it is.
      result = target.deliver({ ...entry.alert, replayed })
    } catch (e) {
      this.problem('ALERT_DELIVERY', `An alert could not reach ${name}: ${String(e)}`)
      return
    }
    if (result instanceof Promise) result.then(took, () => undefined)
    else took()
  }

  private snapshot(): AlertsSnapshot {
    return {
      rules: this.fileRules,
      states: this.engine.states(),
      history: this.engine.history(),
      seq: this.seq,
    }
  }

  private async save(s: AlertsSnapshot): Promise<void> {
    let file: AlertsFile = { rules: s.rules, states: s.states }
    if (this.opts.ownsRules) {
      // `alerts snooze` or `alerts add` may have written since the last look (every few seconds):
      // writing our copy as is would undo it.
      const theirs = await this.opts.stores.alerts.outsideChange()
      if (theirs !== null) {
        const merged = mergeRules(this.diskRules, this.fileRules, theirs.rules)
        this.fileRules = merged
        this.engine.setRules(this.evaluated(merged), this.engine.states())
        this.rearmOwed()
        this.askBars()
        this.opts.onRulesMerged?.(merged)
        file = { rules: merged, states: this.engine.states() }
      }
    } else {
      // Re-read: `alerts add` or the app may have changed the rules since this loop read them.
      const latest = await this.opts.stores.alerts.load()
      const ours = new Map(s.states.map((st) => [st.ruleId, st]))
      const theirs = new Map(latest.value.states.map((st) => [st.ruleId, st]))
      // A list rule's symbols have states of their own (child ids): kept while the rule is.
      const kept = new Set(latest.value.rules.map((r) => r.id))
      const ids = new Set([...ours.keys(), ...theirs.keys()])
      file = {
        rules: latest.value.rules,
        states: [...ids]
          .filter((id) => kept.has(parentRuleId(id)))
          .map((id) => ours.get(id) ?? theirs.get(id))
          .filter((st): st is AlertRuleState => st !== undefined),
      }
    }
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
    this.compact(s.seq)
  }

  /**
   * The files now hold every fire up to `savedSeq`: the journal keeps only later fires and those
   * still owed to a target.
   */
  private compact(savedSeq: number): void {
    // The journal is the owner's: a standby loop never rewrites it.
    if (!this.active) return
    const keep = this.entries.filter(
      (e) => e.seq > savedSeq || e.owed.some((name) => !e.done.has(name)),
    )
    if (keep.length === this.entries.length && keep.length > 0) return
    try {
      this.journal.rewrite(keep)
      this.entries = keep
    } catch {
      // A journal that stays long costs a little disk, nothing else; the next save tries again.
    }
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

import { AlertEngine, type RuleMemo } from '../../core/alerts/alert-engine'
import type { Clock, TimerHandle } from '../../core/clock'
import { isLeaseLost, type Fence } from '../../core/persistence/fence'
import type { StoreProblem } from '../../core/persistence/json-store'
import { ThrottledSave } from '../../core/persistence/throttled-save'
import type { AlertRule, AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import type { SymbolKey } from '../../shared/markets/market'
import type { Quote } from '../../shared/quote'
import type { Watchlist } from '../../shared/watchlist'
import type { AlertBars } from './alert-follow'
import { readLoopFiles, statesToSave, writeLoopFiles, type LoopStores } from './alert-loop-files'
import { AlertOutbox, type AlertTarget } from './alert-outbox'
import { replayJournal, restartGapSince, withDropped } from './alert-replay'
import { barNeeds, judgedRules } from './alert-rule-set'

/**
 * The alert loop: where the folder's owner evaluates rules, records fires and announces them.
 * One exists only in the process that holds the folder's alerts lease (ownership.ts and
 * alert-host.ts decide that); it reads the folder's files afresh when it opens, and every write
 * it makes (states, history, journal) is fenced by that lease: the first one refused stops it
 * at once (onLost), before anything more is judged or announced.
 *
 *   alert-loop-files.ts   the files it reads at open and writes at each save
 *   alert-outbox.ts       the fire journal and delivery once per target (alert-handoff.ts)
 *   alert-replay.ts       the journal replayed over the saved states and history
 *   alert-rule-set.ts     which rules it judges (list rules expanded, the host's service)
 *   src/core/alerts/alert-engine.ts  conditions and rule states (pure)
 * Promises, with the outcome of a crash at each step: docs/alerts-guarantees.md.
 */

export type { AlertTarget, UndeliveredFire } from './alert-outbox'
export type { AlertBars } from './alert-follow'

export const ALERT_SAVE_EVERY_MS = 500
/** Rule states (last price seen, and when) saved this often: a restart knows since when it was away. */
export const SEEN_SAVE_EVERY_MS = 60_000

export interface AlertLoopOptions {
  stores: LoopStores
  clock: Clock
  /** Asked before every write of the states, the history and the journal (fence.ts). */
  fence: Fence
  /** Which stored rules this loop judges (default: all): those of the host's service. */
  judges?: (rule: AlertRule) => boolean
  /** Which targets a fire is owed to (default: all): a demo fire never reaches a webhook. */
  owes?: (target: string) => boolean
  /** A damaged file or a failed save, in words for the trader. */
  onProblem: (code: string, message: string) => void
  /** A write found the lease taken: the loop has stopped, nothing more is judged or announced. */
  onLost?: (message: string) => void
  /** Whether now is in the trader's quiet hours: a fire is then marked quiet (no sound or pop). */
  quietNow?: () => boolean
  /** Written on each fire, so every host can say who fired it. */
  firedBy: FiredAlert['firedBy']
  newId?: () => string
}

export class AlertLoop {
  private readonly engine: AlertEngine
  private readonly outbox: AlertOutbox
  private readonly saver: ThrottledSave<AlertsSnapshot>
  private readonly listeners = new Set<() => void>()
  private rules: AlertRule[] = []
  private lists: readonly Watchlist[] = []
  /** States of rules this loop does not judge (another service's), kept as read. */
  private readonly others = new Map<string, AlertRuleState>()
  private paused = false
  private stopped = false
  private seenTimer: TimerHandle | null = null
  private market: AlertBars | null = null

  private constructor(private readonly opts: AlertLoopOptions) {
    this.engine = new AlertEngine({
      clock: opts.clock,
      firedBy: opts.firedBy,
      ...(opts.newId ? { newId: opts.newId } : {}),
    })
    this.outbox = new AlertOutbox(opts.stores.dir, {
      fence: opts.fence,
      problem: (code, message) => this.problem(code, message),
      changed: () => this.changed(),
      lost: (e) => this.lose(e),
      now: () => opts.clock.now(),
    })
    this.saver = new ThrottledSave({
      clock: opts.clock,
      intervalMs: ALERT_SAVE_EVERY_MS,
      save: (snapshot) => this.save(snapshot),
      onError: (e) =>
        isLeaseLost(e)
          ? this.lose(e)
          : this.problem('STORAGE_ERROR', `Could not save alert states: ${String(e)}`),
    })
  }

  /** Reads the rules, their states and history, and replays the fire journal over them. */
  static async open(opts: AlertLoopOptions): Promise<AlertLoop> {
    const loop = new AlertLoop(opts)
    await loop.load()
    return loop
  }

  private async load(): Promise<void> {
    const files = await readLoopFiles(this.opts.stores, (p) => this.report(p))
    this.rules = files.rules
    this.lists = files.lists
    const read = this.outbox.readJournal()
    const replayed = replayJournal({ states: files.states, history: files.history }, read.fires)
    this.outbox.continueFrom(replayed.lastSeq)
    for (const s of replayed.states) this.others.set(s.ruleId, s)
    this.applyRules()
    this.engine.setHistory(replayed.history)
    if (read.fires.length > 0) {
      // The files catch up with the journal before it is compacted to what is still owed.
      this.saver.request(() => this.snapshot())
      await this.saver.flush()
    }
  }

  /** The stored rules as this loop last read or was given them. */
  get storedRules(): AlertRule[] {
    return this.rules
  }

  /** False once a write found the lease taken (or stop()): it judges and announces nothing. */
  get running(): boolean {
    return !this.stopped
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
    const keys = new Map(this.judged().map((r) => [r.id, r.key]))
    this.engine.markGap(restartGapSince(this.engine.states(), keys, cachedAt))
  }

  /**
   * Every merged quote; only a fresh one (stream, poll, gap fill) can fire. `memo`: the symbol's
   * (alert-engine.ts RuleMemo), where the engine keeps which rules are its.
   */
  evaluate(quote: Quote, memo?: RuleMemo): void {
    if (this.stopped) return
    const fires = this.engine.evaluate(quote, memo)
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
    try {
      // No await between the decision and the journal: a fire is durable before it is announced.
      this.outbox.post(
        fires,
        (id, seq) => {
          this.engine.stampSeq(id, seq)
          return this.engine.stateOf(id) as AlertRuleState
        },
        this.opts.owes ?? (() => true),
        this.paused,
      )
    } catch (e) {
      if (!isLeaseLost(e)) throw e
      this.lose(e)
      return
    }
    this.changed()
  }

  /** The stored rules changed (an edit here or in another process): states saved at once. */
  async setRules(rules: AlertRule[]): Promise<void> {
    this.rules = rules
    this.applyRules()
    this.saver.request(() => this.snapshot())
    await this.saver.flush()
  }

  /** The watchlists changed: list-wide rules follow, the other symbols keep their state. */
  setLists(lists: readonly Watchlist[]): void {
    this.lists = lists
    this.applyRules()
  }

  /** Paused: rules keep evaluating and fires are kept in history, but no target hears of them. */
  setPaused(paused: boolean): void {
    this.paused = paused
  }

  states(): AlertRuleState[] {
    return statesToSave(this.engine.states(), this.others, this.rules)
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

  /** Fires owed to targets that no longer exist are dropped, each with a line in its history. */
  dropGone(exists: (target: string) => boolean): void {
    const changed = this.outbox.dropGone(exists, this.opts.clock.now())
    if (changed.length === 0) return
    let history = this.engine.history()
    for (const alert of changed) history = withDropped(history, alert)
    this.engine.setHistory(history)
    this.changed()
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
    if (this.stopped) return
    this.saver.request(() => this.snapshot())
    await this.saver.flush()
  }

  /** Stops at once, writing nothing more: the lease is gone or going. */
  stop(): void {
    this.stopped = true
    this.outbox.stop()
    this.saver.cancel()
    this.opts.clock.clearTimeout(this.seenTimer)
    this.seenTimer = null
  }

  // ---- inside ------------------------------------------------------------------------------

  private lose(e: unknown): void {
    if (this.stopped) return
    this.stop()
    this.opts.onLost?.(e instanceof Error ? e.message : String(e))
  }

  /** The judged rules given to the engine; the states of the others kept as they are. */
  private applyRules(): void {
    const judged = this.judged()
    const ids = new Set(judged.map((r) => r.id))
    const before = this.engine.states()
    for (const s of before) if (!ids.has(s.ruleId)) this.others.set(s.ruleId, s)
    const back = [...this.others.values()].filter((s) => ids.has(s.ruleId))
    this.engine.setRules(judged, [...before, ...back])
    for (const id of ids) this.others.delete(id)
    this.outbox.rearm((id) => this.engine.stateOf(id))
    this.askBars()
  }

  private judged(): AlertRule[] {
    return judgedRules(this.rules, this.lists, this.opts.judges ?? (() => true))
  }

  private changed(): void {
    this.saver.request(() => this.snapshot())
    for (const cb of this.listeners) cb()
  }

  private askBars(): void {
    this.market?.backfillBars(barNeeds(this.judged()))
  }

  private snapshot(): AlertsSnapshot {
    return { states: this.states(), history: this.engine.history(), seq: this.outbox.lastSeq }
  }

  private async save(s: AlertsSnapshot): Promise<void> {
    if (this.stopped) return
    await writeLoopFiles(this.opts.stores, this.opts.fence, s)
    this.outbox.compact(s.seq)
  }

  private report(p: StoreProblem | null): void {
    if (p) this.problem(p.code, p.message)
  }

  private problem(code: string, message: string): void {
    this.opts.onProblem(code, message)
  }
}

interface AlertsSnapshot {
  states: AlertRuleState[]
  history: FiredAlert[]
  seq: number
}

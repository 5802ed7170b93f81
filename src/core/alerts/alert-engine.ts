import { randomUUID } from 'node:crypto'
import type { Clock } from '../clock'
import type { BarSource } from './alert-ma'
import { liveRule, type LiveRule } from './live-rule'
import { RuleJudge } from './rule-judge'
import { canStillFire, normaliseStatus, sameCondition } from './rule-status'
import type { AlertRule, AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import type { SymbolKey } from '../../shared/markets/market'
import type { Quote } from '../../shared/quote'

/**
 * Price alerts, evaluated in core on every merged quote so they fire with no window open.
 *
 * Rule states (AlertRuleState.status):
 *   armed     --condition holds-------------------------> triggered (fires)
 *   triggered --repeat 'once'---------------------------> stays triggered, quiet for good
 *   triggered --'rearm', price back past the hysteresis--> armed, or cooldown if within cooldownSec
 *   cooldown  --cooldownSec after the last fire----------> armed (fires at once if it still holds)
 *   any       --now > expiresAt-------------------------> expired (never fires again)
 *   any       --rule disabled---------------------------> disabled (never fires)
 *   any       --snoozed (rule.snoozedUntil in the future)--> snoozed (quiet; still tracks prices)
 *   snoozed   --snoozedUntil passed-----------------------> armed (fires again if it still holds)
 *   any       --its condition changed (a level or a drawing moved)--> armed (fires there)
 *
 * Only fresh quotes are evaluated: a stale or cached price says nothing about the market now, so
 * nothing fires from the quote cache at start-up or from a stale row on resume; a stream tick, a
 * poll or a gap fill can. After markGap() (sleep, offline, the time nothing ran) the first fresh
 * quote per symbol is evaluated normally and what fires is marked whileAway with the time the
 * gap began, so a level passed while away is reported once, not skipped.
 *
 * The engine decides and records; announcing (and making a fire durable first) is the caller's
 * job: src/app/alerts/alert-loop.ts.
 */

const HISTORY_LIMIT = 500

/**
 * Where a caller keeps, per symbol, which of the engine's rules are the symbol's (the quote
 * store's slot: core/quotes quote-entry.ts ListenerMemo), so a tick looks none up while the rule
 * set stands. Each setRules() is a new epoch, unique across engines: a memo of another rule set
 * or another engine is looked up afresh.
 */
export interface RuleMemo {
  alertRules: unknown
  alertEpoch: number
}

let ruleSets = 0

const NONE: FiredAlert[] = Object.freeze([]) as unknown as FiredAlert[]

export class AlertEngine {
  private readonly clock: Clock
  private readonly byId = new Map<string, LiveRule>()
  private readonly byKey = new Map<SymbolKey, LiveRule[]>()
  /** Symbols in a gap, with the time the gap began. */
  private readonly awayKeys = new Map<SymbolKey, number>()
  private fired: FiredAlert[] = []
  private readonly judge: RuleJudge
  /** The rule set's epoch (RuleMemo). */
  private epoch = ++ruleSets

  constructor(opts: { clock: Clock; newId?: () => string; firedBy?: FiredAlert['firedBy'] }) {
    this.clock = opts.clock
    this.judge = new RuleJudge(opts.clock, opts.newId ?? randomUUID, opts.firedBy ?? 'app')
  }

  /**
   * Replaces the rule set. States come from `states` when given (restored from disk), else from
   * the current state of a rule with the same id and condition, else the rule starts armed. A
   * rule whose condition changed under the same id (a level moved) is armed afresh either way.
   */
  setRules(rules: AlertRule[], states?: AlertRuleState[]): void {
    const restored = new Map(states?.map((s) => [s.ruleId, s]))
    const previous = new Map(this.byId)
    this.byId.clear()
    this.byKey.clear()
    this.epoch = ++ruleSets
    for (const rule of rules) {
      const old = previous.get(rule.id)
      const sameRule = old !== undefined && sameCondition(old.rule, rule)
      const state: AlertRuleState = {
        ...(restored.get(rule.id) ??
          (sameRule ? old.state : undefined) ?? {
            ruleId: rule.id,
            status: 'armed',
            lastFiredAt: null,
            lastPrice: null,
            lastSeenAt: null,
          }),
      }
      if (old !== undefined && !sameRule) {
        // A level moved (a line dragged on the chart): armed afresh at the new level, as a
        // chart's alert line is; the last price seen stays, so a cross is still seen.
        state.status = 'armed'
        state.lastFiredAt = null
      }
      normaliseStatus(rule, state, this.clock.now())
      delete state.waitingBars
      const live = liveRule(rule, state, sameRule ? old : undefined)
      this.byId.set(rule.id, live)
      const list = this.byKey.get(rule.key)
      if (list) list.push(live)
      else this.byKey.set(rule.key, [live])
    }
  }

  /** Where 'maCross' rules read their bars (the engine's candles, which already hold this tick). */
  setBarSource(bars: BarSource | null): void {
    this.judge.bars = bars
  }

  /**
   * Call on every merged quote; returns what fired (also while paused). `memo`: the symbol's own
   * (RuleMemo), never another symbol's.
   */
  evaluate(quote: Quote, memo?: RuleMemo): FiredAlert[] {
    let rules: LiveRule[] | undefined
    if (memo !== undefined && memo.alertEpoch === this.epoch)
      rules = memo.alertRules as LiveRule[] | undefined
    else {
      rules = this.byKey.get(quote.key)
      if (memo !== undefined) {
        memo.alertRules = rules
        memo.alertEpoch = this.epoch
      }
    }
    if (rules === undefined || quote.stale || quote.source === 'cache' || quote.last === null)
      return NONE
    this.judge.startTick()
    let away: number | null = null
    if (this.awayKeys.size > 0) {
      away = this.awayKeys.get(quote.key) ?? null
      if (away !== null) this.awayKeys.delete(quote.key)
    }
    let out: FiredAlert[] | null = null
    for (let i = 0; i < rules.length; i++) {
      const alert = this.judge.step(rules[i] as LiveRule, quote, quote.last, away)
      if (alert !== null) (out ??= []).push(alert)
    }
    if (out === null) return NONE
    for (const alert of out) this.record(alert)
    return out
  }

  /**
   * The feed had a gap that began at `since` (sleep, offline, a restart): the next fresh quote per
   * symbol may fire whileAway. `since` may be per symbol (the last price seen before a restart;
   * undefined for a symbol never seen, which has no gap to speak of). A symbol already in a gap
   * keeps the earlier start.
   */
  markGap(since: number | ((key: SymbolKey) => number | undefined)): void {
    for (const key of this.byKey.keys()) {
      const start = typeof since === 'number' ? since : since(key)
      if (start === undefined) continue
      const known = this.awayKeys.get(key)
      if (known === undefined || start < known) this.awayKeys.set(key, start)
    }
  }

  states(): AlertRuleState[] {
    const now = this.clock.now()
    const out: AlertRuleState[] = []
    for (const live of this.byId.values()) {
      normaliseStatus(live.rule, live.state, now)
      const state: AlertRuleState = { ...live.state }
      if (live.ma) {
        // maHave is left to the tick path: it is what the hosts were last told (takeWarmupMoved).
        const warm = live.ma.warmup(this.judge.bars, now)
        state.waitingBars = warm.have < warm.need ? warm : null
      }
      out.push(state)
    }
    return out
  }

  /**
   * Whether a moving-average rule's bar count, or a drawn line's side, moved since the last call
   * (then states() says; the hosts save it).
   */
  takeWarmupMoved(): boolean {
    const moved = this.judge.warmupMoved
    this.judge.warmupMoved = false
    return moved
  }

  history(): FiredAlert[] {
    return this.fired.slice()
  }

  setHistory(h: FiredAlert[]): void {
    this.fired = h.slice(-HISTORY_LIMIT)
  }

  clearHistory(): void {
    this.fired = []
  }

  /** Symbols with rules that can still fire; they get stream priority. */
  watchedKeys(): SymbolKey[] {
    const now = this.clock.now()
    const keys: SymbolKey[] = []
    for (const [key, rules] of this.byKey) {
      if (rules.some((live) => canStillFire(live.rule, live.state, now))) keys.push(key)
    }
    return keys
  }

  /**
   * The fire journal's sequence number of the rule's last fire: how a restart tells whether the
   * saved state or the journal's is newer (the wall clock can step back; this cannot).
   */
  stampSeq(ruleId: string, seq: number): void {
    const live = this.byId.get(ruleId)
    if (live) live.state.seq = seq
  }

  /** The rule's current state (a copy), for the journal that makes a fire durable. */
  stateOf(ruleId: string): AlertRuleState | null {
    const live = this.byId.get(ruleId)
    return live ? { ...live.state } : null
  }

  private record(alert: FiredAlert): void {
    this.fired.push(alert)
    if (this.fired.length > HISTORY_LIMIT) this.fired.splice(0, this.fired.length - HISTORY_LIMIT)
  }
}

import { randomUUID } from 'node:crypto'
import type { Clock } from '../clock'
import { alertMessage, conditionHolds, rearmReached, type ConditionInput } from './alert-conditions'
import type { BarSource } from './alert-ma'
import { liveRule, type LiveRule } from './live-rule'
import { canStillFire, normaliseStatus, sameCondition } from './rule-status'
import type { AlertRule, AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import { parentRuleId } from '../../shared/alerts/alert-list'
import type { SymbolKey } from '../../shared/markets/market'
import type { Quote } from '../../shared/quote'
import { quoteSpread } from '../../shared/spread'
import { rangeAt } from '../../shared/drawings/drawing-geometry'

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
const NONE: FiredAlert[] = Object.freeze([]) as unknown as FiredAlert[]

export class AlertEngine {
  private readonly clock: Clock
  private readonly newId: () => string
  private readonly byId = new Map<string, LiveRule>()
  private readonly byKey = new Map<SymbolKey, LiveRule[]>()
  /** Symbols in a gap, with the time the gap began. */
  private readonly awayKeys = new Map<SymbolKey, number>()
  private fired: FiredAlert[] = []
  /** The clock, read at most once per evaluate() and only when a rule needs it (hot path). */
  private nowRead = false
  private nowValue = 0
  private readonly input: ConditionInput = {
    price: 0,
    prev: null,
    dayChangePct: null,
    movePct: null,
    volume: null,
    ma: null,
    maDiff: null,
    prevMaDiff: null,
    spread: null,
    line: null,
    lineDiff: null,
    prevLineDiff: null,
    range: null,
  }
  /** Bars for 'maCross' rules (the engine's candles); null until a host attaches them. */
  private bars: BarSource | null = null
  /**
   * A rule's state moved in a way the hosts keep: a moving-average rule's bar count while it warms
   * up (they show "waiting"), a drawn line's side first known (they save it for a restart).
   */
  private warmupMoved = false

  private readonly firedBy: FiredAlert['firedBy']

  constructor(opts: { clock: Clock; newId?: () => string; firedBy?: FiredAlert['firedBy'] }) {
    this.clock = opts.clock
    this.newId = opts.newId ?? randomUUID
    this.firedBy = opts.firedBy ?? 'app'
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
    this.bars = bars
  }

  /** Call on every merged quote; returns what fired (also while paused). */
  evaluate(quote: Quote): FiredAlert[] {
    const rules = this.byKey.get(quote.key)
    if (rules === undefined || quote.stale || quote.source === 'cache' || quote.last === null)
      return NONE
    this.nowRead = false
    let away: number | null = null
    if (this.awayKeys.size > 0) {
      away = this.awayKeys.get(quote.key) ?? null
      if (away !== null) this.awayKeys.delete(quote.key)
    }
    let out: FiredAlert[] | null = null
    for (let i = 0; i < rules.length; i++) {
      const alert = this.step(rules[i] as LiveRule, quote, quote.last, away)
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
        const warm = live.ma.warmup(this.bars, now)
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
    const moved = this.warmupMoved
    this.warmupMoved = false
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

  /** The rule's current state (a copy), for the journal that makes a fire durable. */
  /**
   * The fire journal's sequence number of the rule's last fire: how a restart tells whether the
   * saved state or the journal's is newer (the wall clock can step back; this cannot).
   */
  stampSeq(ruleId: string, seq: number): void {
    const live = this.byId.get(ruleId)
    if (live) live.state.seq = seq
  }

  stateOf(ruleId: string): AlertRuleState | null {
    const live = this.byId.get(ruleId)
    return live ? { ...live.state } : null
  }

  private step(
    live: LiveRule,
    quote: Quote,
    price: number,
    away: number | null,
  ): FiredAlert | null {
    const { rule, state } = live
    // Only expiry needs the time here (normaliseStatus ignores it when expiresAt is null).
    normaliseStatus(
      rule,
      state,
      rule.expiresAt === null && rule.snoozedUntil == null ? 0 : this.now(),
    )
    if (state.status === 'disabled' || state.status === 'expired') return null

    const input = this.fillInput(live, quote, price)
    state.lastPrice = price
    if (quote.lastIsMid === true) {
      if (state.watches !== 'mid') state.watches = 'mid'
    } else if (state.watches !== undefined) delete state.watches
    state.lastSeenAt = quote.receivedAt
    live.window?.add(this.now(), price)
    if (state.status === 'snoozed') return null

    // Re-arming and firing are checked on the same tick: for 'crosses', the move that leaves the
    // hysteresis band on the far side is itself a crossing.
    if (state.status === 'triggered') {
      if (rule.repeat === 'once' || !rearmReached(rule.condition, input, rule.hysteresisPct)) {
        return null
      }
    }
    live.anchor = null
    // The wall clock stepped back past the last fire (NTP, a hand-set clock): how long ago it
    // fired is unknown, so the cooldown runs whole from now, never for the size of the step.
    if (state.lastFiredAt !== null && state.lastFiredAt > this.now()) state.lastFiredAt = this.now()
    const cooling =
      state.lastFiredAt !== null && this.now() < state.lastFiredAt + rule.cooldownSec * 1000
    state.status = cooling ? 'cooldown' : 'armed'
    if (cooling || !conditionHolds(rule.condition, input)) return null

    const now = this.now()
    state.status = 'triggered'
    state.lastFiredAt = now
    if (rule.condition.kind === 'crosses') live.anchor = price
    if (rule.condition.kind === 'lineCross') live.anchor = input.lineDiff
    if (live.window) {
      live.window.reset()
      live.window.add(now, price)
    }
    live.volume?.reset()
    return {
      id: this.newId(),
      // A list rule's symbol fires under the stored rule's id (its state keeps the child id).
      ruleId: rule.listId === undefined ? rule.id : parentRuleId(rule.id),
      key: rule.key,
      message: alertMessage(quote.symbol, rule.condition, input, state.watches),
      price,
      ...(state.watches === 'mid' ? { priceIs: 'mid' as const } : {}),
      at: now,
      whileAway: away !== null,
      awaySince: away,
      quoteAt: quote.ts,
      firedBy: this.firedBy,
    }
  }

  /**
   * What the rule's condition is measured against on this tick. One input object refilled per
   * evaluation (hot path, bench/ingest); the condition helpers read it and keep nothing.
   */
  private fillInput(live: LiveRule, quote: Quote, price: number): ConditionInput {
    const input = this.input
    input.price = price
    input.prev = live.anchor ?? live.state.lastPrice
    input.dayChangePct = quote.changePercent
    input.movePct = live.window ? live.window.move(this.now(), price) : null
    if (live.volume) {
      live.volume.add(this.now(), quote.volume)
      input.volume = live.volume.total(this.now())
    } else input.volume = null
    if (live.ma) {
      input.ma = live.ma.value(this.bars, this.now(), price)
      if (live.ma.have !== live.maHave) {
        live.maHave = live.ma.have
        this.warmupMoved = true
      }
      input.maDiff = input.ma === null ? null : price - input.ma
      input.prevMaDiff = live.prevMaDiff
      live.prevMaDiff = input.maDiff
    } else input.ma = input.maDiff = input.prevMaDiff = null
    input.spread = live.rule.condition.kind === 'spread' ? quoteSpread(quote.bid, quote.ask) : null
    this.drawingInput(live, quote, price)
    return input
  }

  /** A drawn line's or range's prices at the tick's time (the chart's time: the quote's). */
  private drawingInput(live: LiveRule, quote: Quote, price: number): void {
    const input = this.input
    const c = live.rule.condition
    input.range = c.kind === 'rangeCross' ? rangeAt(c.range, quote.ts) : null
    if (live.line === null) {
      input.line = input.lineDiff = input.prevLineDiff = null
      return
    }
    const side = live.line.step(price, quote.ts, live.state, this.bars)
    input.line = side.line
    input.lineDiff = side.now
    input.prevLineDiff = live.anchor ?? side.prev
    // The side is known from now on: the hosts save the state, so a restart knows it too.
    if (side.learned) this.warmupMoved = true
  }

  private now(): number {
    if (!this.nowRead) {
      this.nowValue = this.clock.now()
      this.nowRead = true
    }
    return this.nowValue
  }

  private record(alert: FiredAlert): void {
    this.fired.push(alert)
    if (this.fired.length > HISTORY_LIMIT) this.fired.splice(0, this.fired.length - HISTORY_LIMIT)
  }
}

import type { Clock } from '../clock'
import { alertMessage, conditionHolds, rearmReached, type ConditionInput } from './alert-conditions'
import type { BarSource } from './alert-ma'
import type { LiveRule } from './live-rule'
import { normaliseStatus } from './rule-status'
import type { FiredAlert } from '../../shared/alerts/alert'
import { parentRuleId } from '../../shared/alerts/alert-list'
import type { Quote } from '../../shared/quote'
import { quoteSpread } from '../../shared/spread'
import { rangeAt } from '../../shared/drawings/drawing-geometry'

/**
 * One rule judged on one tick: the transitions of the rule state machine a price drives (the
 * diagram is alert-engine.ts's), what its condition is measured against, and the fire it makes.
 * The engine holds one judge and hands it each rule of a quote's symbol (hot path, bench/ingest:
 * one input object refilled per rule, the clock read at most once a tick).
 */
export class RuleJudge {
  /** Bars for 'maCross' and 'lineCross' rules (the engine's candles); null until attached. */
  bars: BarSource | null = null
  /**
   * A rule's state moved in a way the hosts keep: a moving-average rule's bar count while it warms
   * up (they show "waiting"), a drawn line's side first known (they save it for a restart).
   */
  warmupMoved = false
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

  constructor(
    private readonly clock: Clock,
    private readonly newId: () => string,
    private readonly firedBy: FiredAlert['firedBy'],
  ) {}

  /** A new tick: the clock is read afresh, and only if a rule needs it. */
  startTick(): void {
    this.nowRead = false
  }

  /** The rule on this tick's quote, priced `price`: the fire it makes, or null. */
  step(live: LiveRule, quote: Quote, price: number, away: number | null): FiredAlert | null {
    if (live.priceOnly && this.quietTick(live, quote, price)) return null
    const { rule, state } = live
    // Only expiry needs the time here (normaliseStatus ignores it when expiresAt is null).
    normaliseStatus(
      rule,
      state,
      rule.expiresAt === null && rule.snoozedUntil == null ? 0 : this.now(),
    )
    if (state.status === 'disabled' || state.status === 'expired') return null

    const input = this.fillInput(live, quote, price)
    seen(live, quote, price)
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
   * The common tick of a price-only rule, judged on the price and the previous price alone: a
   * rule armed and free to fire (enabled, no expiry or snooze, not cooling down, the clock not
   * stepped back past its last fire) whose condition does not hold. It then does what step()
   * would (the price seen, the anchor dropped, still armed) without the rest of the input;
   * false, having changed nothing, for anything else, which step() judges in full.
   */
  private quietTick(live: LiveRule, quote: Quote, price: number): boolean {
    const { rule, state } = live
    if (
      state.status !== 'armed' ||
      !rule.enabled ||
      rule.expiresAt !== null ||
      rule.snoozedUntil != null
    )
      return false
    // Cooling down, or fired "later" than now (the clock stepped back): step() judges it.
    const firedAt = state.lastFiredAt
    if (firedAt !== null && this.now() < firedAt + rule.cooldownSec * 1000) return false
    const input = this.input
    input.price = price
    input.prev = live.anchor ?? state.lastPrice
    if (conditionHolds(rule.condition, input)) return false
    seen(live, quote, price)
    live.anchor = null
    return true
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
}

/** The price a rule saw on this tick, and whether it is a mid (the state the hosts keep). */
function seen(live: LiveRule, quote: Quote, price: number): void {
  const state = live.state
  state.lastPrice = price
  if (quote.lastIsMid === true) {
    if (state.watches !== 'mid') state.watches = 'mid'
  } else if (state.watches !== undefined) delete state.watches
  state.lastSeenAt = quote.receivedAt
}

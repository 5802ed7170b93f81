import type { AlertRule, AlertRuleState } from '../../shared/alerts/alert'
import { MoveWindow, VolumeWindow } from './alert-conditions'
import { LineSide } from './alert-drawings'
import { MaTracker } from './alert-ma'

/**
 * A rule as the engine holds it between ticks (alert-engine.ts): its saved state, and what its
 * condition measures across ticks (windows, an average, a side of a drawn line), none of which
 * is persisted.
 */
export interface LiveRule {
  rule: AlertRule
  state: AlertRuleState
  window: MoveWindow | null
  volume: VolumeWindow | null
  /** 'maCross' only: the average, and price minus it at the previous tick (not persisted). */
  ma: MaTracker | null
  /** 'maCross' only: the bars its average had at the last tick (capped at the period). */
  maHave: number
  prevMaDiff: number | null
  /** 'lineCross' only: which side of its drawn line the price was on (alert-drawings.ts). */
  line: LineSide | null
  /**
   * 'crosses' only: the price it last fired at, compared with instead of the previous tick until
   * the rule re-arms. A cross back that happened inside the hysteresis band is then still
   * reported once the price leaves the band on the other side. Not persisted: after a restart
   * the persisted lastPrice serves. 'lineCross' keeps its side of the line at the fire (price
   * minus the line) the same way.
   */
  anchor: number | null
  /**
   * Its condition reads the price and the previous price alone (a level or a channel): nothing
   * measured across ticks, so a tick that leaves it armed and unmet is judged without the rest
   * of the input (alert-engine.ts quietTick).
   */
  readonly priceOnly: boolean
}

const PRICE_ONLY: ReadonlySet<AlertRule['condition']['kind']> = new Set([
  'above',
  'below',
  'crosses',
  'channel',
])

/**
 * The engine's hold of `rule` with `state`: what it measured across ticks is kept from `same`
 * (the rule as it was, when its condition did not change) and started afresh otherwise: a moved
 * level or drawing is a new line, its side found again from the last price seen.
 */
export function liveRule(rule: AlertRule, state: AlertRuleState, same?: LiveRule): LiveRule {
  const c = rule.condition
  return {
    rule,
    state,
    window: c.kind === 'movePct' ? (same?.window ?? new MoveWindow(c.minutes * 60_000)) : null,
    volume: c.kind === 'volume' ? (same?.volume ?? new VolumeWindow(c.minutes * 60_000)) : null,
    ma:
      c.kind === 'maCross'
        ? (same?.ma ?? new MaTracker(rule.key, c.ma, c.period, c.interval))
        : null,
    maHave: same?.maHave ?? -1,
    prevMaDiff: same?.prevMaDiff ?? null,
    anchor: same?.anchor ?? null,
    line: c.kind === 'lineCross' ? (same?.line ?? new LineSide(rule.key, c)) : null,
    priceOnly: PRICE_ONLY.has(c.kind),
  }
}

import type { AlertCondition, AlertRule, AlertRuleState, Webhook } from './alert'
import { formatClock } from '../markets/clock-text'
import type { Line, Range } from '../drawings/drawing'
import { lineAt } from '../drawings/drawing-geometry'

/**
 * A rule's condition in the words every host shows (the alerts panel, `tickdesk alerts list`,
 * the runner's log), so the CLI and the app never describe one rule two ways.
 */
export function describeCondition(condition: AlertCondition, now?: number): string {
  switch (condition.kind) {
    case 'above':
      return `above ${condition.price}`
    case 'below':
      return `below ${condition.price}`
    case 'crosses':
      return `crosses ${condition.price}`
    case 'dayChangePct':
      return `day change ${condition.pct > 0 ? '≥ +' : '≤ '}${condition.pct}%`
    case 'movePct':
      return `moves ${condition.pct}% in ${condition.minutes} min`
    case 'volume':
      return `volume ≥ ${condition.amount} in ${condition.minutes} min`
    case 'maCross':
      return `${maCrossVerb(condition.direction)} ${maName(condition)}`
    case 'spread':
      return `spread ≥ ${spreadText(condition.above, condition.unit)}`
    case 'channel':
      return `${condition.on === 'enter' ? 'enters' : 'leaves'} ${condition.low}–${condition.high}`
    case 'lineCross':
      return `${maCrossVerb(condition.direction)} your ${lineText(condition.line, now)}`
    case 'rangeCross':
      return `${condition.on === 'enter' ? 'enters' : 'leaves'} your ${rangeText(condition.range, now)}`
  }
}

/** The conditions that watch the symbol's price (not its volume, spread or day change). */
export const PRICE_KINDS: ReadonlySet<AlertCondition['kind']> = new Set([
  'above',
  'below',
  'crosses',
  'movePct',
  'maCross',
  'channel',
  'lineCross',
  'rangeCross',
])

/**
 * What a price rule on a symbol the service quotes with bid and ask only watches, in the words
 * the alert form and `alerts list` show.
 */
export const WATCHES_MID = 'watches the mid of bid and ask: this symbol has no last price'

/**
 * A drawn line as a rule names it: "horizontal ray at 67000", "trend line (66900 → 67400, now
 * at 67120)" (its price at `now`, when given: a trend line moves).
 */
function lineText(line: Line, now: number | undefined): string {
  if (line.shape === 'hline') return `horizontal line at ${line.price}`
  if (line.shape === 'ray') return `horizontal ray at ${line.from.price}`
  const at = now === undefined ? null : lineAt(line, now)
  const nowText = at === null ? '' : `, now at ${Number(at.toPrecision(6))}`
  return `trend line (${line.a.price} → ${line.b.price}${nowText})`
}

/** "range 66800–67400", and "(ended 14:00)" once its time is over: it can no longer fire. */
function rangeText(range: Range, now: number | undefined): string {
  const ended =
    now !== undefined && range.to !== null && range.to < now
      ? ` (ended ${formatClock(range.to, now)})`
      : ''
  return `range ${range.low}–${range.high}${ended}`
}

/** A spread in the unit a rule watches it in: "12.5 bp" or a plain price. */
export function spreadText(value: number, unit: 'bps' | 'price'): string {
  return unit === 'bps' ? `${value} bp` : `${value}`
}

/**
 * A webhook's delivery record in a few words, the same in the alerts panel and `alerts list`;
 * a disabled one says so first, with why.
 */
export function webhookHealth(
  w: Pick<Webhook, 'failures' | 'lastError'> & { disabled?: string | undefined },
): string {
  if (w.disabled !== undefined) return `disabled: ${w.disabled}`
  const failed = `${w.failures} failed attempt${w.failures === 1 ? '' : 's'}`
  return w.lastError === null ? failed : `${failed}, last: ${w.lastError}`
}

/**
 * A rule's state in the words the alerts panel and `alerts list` show: its status, or for a
 * moving-average rule whose bars are not there yet "waiting for bars (7 of 20)", since it cannot
 * fire until they are and "armed" would promise what it cannot keep.
 */
export function ruleStatusText(state: Pick<AlertRuleState, 'status' | 'waitingBars'>): string {
  const w = state.waitingBars
  if (state.status === 'armed' && w != null) return `waiting for bars (${w.have} of ${w.need})`
  return state.status
}

/** "snoozed until 14:05" while a rule is snoozed, else null. */
export function snoozeText(rule: Pick<AlertRule, 'snoozedUntil'>, now: number): string | null {
  const until = rule.snoozedUntil
  return until != null && until > now ? `snoozed until ${formatClock(until, now)}` : null
}

/** "the 20 EMA (15m)": how a moving average is named in rules and fired messages. */
export function maName(c: { ma: 'sma' | 'ema'; period: number; interval: string }): string {
  return `the ${c.period} ${c.ma.toUpperCase()} (${c.interval})`
}

function maCrossVerb(direction: 'up' | 'down' | 'any'): string {
  return direction === 'up' ? 'crosses above' : direction === 'down' ? 'crosses below' : 'crosses'
}

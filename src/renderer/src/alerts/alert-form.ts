import {
  MAX_MA_PERIOD,
  type AlertCondition,
  type AlertRuleInput,
} from '../../../shared/alerts/alert'
import type { Interval } from '../../../shared/quote'
import { LIST_CONDITIONS, LIST_SPREAD_UNIT } from '../../../shared/alerts/alert-list'
import { parseSymbolKey, symbolKey } from '../../../shared/markets/market'

/**
 * The alert form's fields as typed (strings from inputs) and their translation into the bridge's
 * addAlert params. Validation messages are for the trader, shown inline next to the form.
 */
/** The kinds this form makes; an alert on a drawing is made from the drawing on its chart. */
export type AlertKind = Exclude<AlertCondition['kind'], 'lineCross' | 'rangeCross'>

export interface AlertDraft {
  /** One symbol, or every symbol on a watchlist (listId). */
  target: 'symbol' | 'list'
  key: string
  listId: string
  kind: AlertKind
  /** Price for above/below/crosses, percent for dayChangePct/movePct, low bound for channel. */
  value: string
  minutes: string
  /** channel only: the upper bound, and whether entering or leaving the range fires. */
  high: string
  on: 'enter' | 'exit'
  /** maCross only: which average (its period is `value`), on which bars, which way. */
  ma: 'sma' | 'ema'
  interval: Interval
  direction: 'up' | 'down' | 'any'
  /** spread only: the level (`value`) in basis points of the mid or in price. */
  spreadUnit: 'bps' | 'price'
  repeat: 'once' | 'rearm'
  cooldownSec: string
  note: string
}

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  above: 'Price above',
  below: 'Price below',
  crosses: 'Price crosses',
  dayChangePct: 'Day change %',
  movePct: 'Moves X% in N min',
  volume: 'Volume above N in M min',
  maCross: 'Crosses a moving average',
  spread: 'Spread above (ask − bid)',
  channel: 'Enters or leaves a range',
}

export function emptyDraft(key = ''): AlertDraft {
  return {
    target: 'symbol',
    key,
    listId: '',
    kind: 'above',
    value: '',
    minutes: '5',
    high: '',
    on: 'enter',
    ma: 'ema',
    interval: '15m',
    direction: 'any',
    spreadUnit: 'bps',
    repeat: 'once',
    cooldownSec: '60',
    note: '',
  }
}

export type DraftResult = { ok: true; input: AlertRuleInput } | { ok: false; message: string }

function num(text: string): number | null {
  if (text.trim() === '') return null
  const n = Number(text)
  return Number.isFinite(n) ? n : null
}

type ConditionResult = { ok: true; condition: AlertCondition } | { ok: false; message: string }
const refuse = (message: string): { ok: false; message: string } => ({ ok: false, message })

/** Why the draft's target cannot take an alert (no list, a list with a per-symbol condition, a bad key). */
function targetError(draft: AlertDraft): string | null {
  if (draft.target !== 'list')
    return parseSymbolKey(draft.key) === null
      ? 'Symbol must look like market:SYMBOL, e.g. crypto:BTCUSDT'
      : null
  if (draft.listId === '') return 'Choose a watchlist'
  if (!LIST_CONDITIONS.includes(draft.kind))
    return 'A whole-list alert takes a move in N minutes, a day change % or a spread in bps'
  if (draft.kind === 'spread' && draft.spreadUnit !== LIST_SPREAD_UNIT)
    return 'A whole-list spread alert is in bps of the mid: symbols at different prices compare only in bps'
  return null
}

/** The window of a move or volume alert: whole minutes within a day. */
function windowMinutes(draft: AlertDraft): number | null {
  const minutes = num(draft.minutes)
  return minutes === null || !Number.isInteger(minutes) || minutes < 1 || minutes > 1440
    ? null
    : minutes
}
const MINUTES_ERROR = 'Minutes must be a whole number from 1 to 1440'

/** The draft's condition, its main number `value` checked for the kind it belongs to. */
function conditionOf(draft: AlertDraft, value: number): ConditionResult {
  const ok = (condition: AlertCondition): ConditionResult => ({ ok: true, condition })
  switch (draft.kind) {
    case 'above':
    case 'below':
    case 'crosses':
      if (value <= 0) return refuse('Price must be above zero')
      return ok({ kind: draft.kind, price: value })
    case 'dayChangePct':
      if (value === 0) return refuse('Percent must not be zero')
      return ok({ kind: 'dayChangePct', pct: value })
    case 'movePct': {
      const minutes = windowMinutes(draft)
      if (value <= 0) return refuse('Percent must be above zero')
      if (minutes === null) return refuse(MINUTES_ERROR)
      return ok({ kind: 'movePct', pct: value, minutes })
    }
    case 'volume': {
      const minutes = windowMinutes(draft)
      if (value <= 0) return refuse('Volume must be above zero')
      if (minutes === null) return refuse(MINUTES_ERROR)
      return ok({ kind: 'volume', amount: value, minutes })
    }
    case 'maCross':
      if (!Number.isInteger(value) || value < 1 || value > MAX_MA_PERIOD)
        return refuse(`The period must be a whole number of bars from 1 to ${MAX_MA_PERIOD}`)
      return ok({
        kind: 'maCross',
        ma: draft.ma,
        period: value,
        interval: draft.interval,
        direction: draft.direction,
      })
    case 'spread':
      if (value <= 0) return refuse('The spread must be above zero')
      return ok({ kind: 'spread', above: value, unit: draft.spreadUnit })
    case 'channel': {
      const high = num(draft.high)
      if (high === null) return refuse('Enter the upper bound as a number')
      if (value <= 0) return refuse('Price must be above zero')
      if (value >= high) return refuse('The lower bound must be below the upper bound')
      return ok({ kind: 'channel', low: value, high, on: draft.on })
    }
  }
}

export function draftToInput(draft: AlertDraft): DraftResult {
  const wrongTarget = targetError(draft)
  if (wrongTarget !== null) return refuse(wrongTarget)
  const value = num(draft.value)
  if (value === null) return refuse('Enter a number')
  const condition = conditionOf(draft, value)
  if (!condition.ok) return condition
  const cooldown = num(draft.cooldownSec)
  if (cooldown === null || !Number.isInteger(cooldown) || cooldown < 0 || cooldown > 86_400)
    return refuse('Cooldown must be 0 to 86400 seconds')
  const ref = draft.target === 'list' ? null : parseSymbolKey(draft.key)
  return {
    ok: true,
    input: {
      ...(ref === null
        ? { key: '', listId: draft.listId }
        : { key: symbolKey(ref.market, ref.symbol) }),
      condition: condition.condition,
      repeat: draft.repeat,
      cooldownSec: cooldown,
      note: draft.note.trim().slice(0, 200),
    },
  }
}

export { describeCondition } from '../../../shared/alerts/alert-describe'
export { volumeNote } from '../../../shared/alerts/alert-volume'

import type { AlertCondition } from '../../shared/alerts/alert'
import { maName, PRICE_KINDS, spreadText } from '../../shared/alerts/alert-describe'
import { lineName } from '../../shared/drawings/drawing'
import type { Spread } from '../../shared/spread'
import { BucketRing } from '../bars/bucket-ring'
import { crossedThrough } from './alert-drawings'

/**
 * The arithmetic of alert conditions, without state: does a price meet a condition, has it moved
 * back far enough to re-arm, and the sentence a trader reads when it fires.
 */

/** What a condition is measured against on one evaluation. */
export interface ConditionInput {
  price: number
  /** The price at the previous evaluation; null when there is none (needed by 'crosses'). */
  prev: number | null
  /** The quote's change on the day in percent (service's, or derived from prevClose). */
  dayChangePct: number | null
  /** Signed largest move in percent within the rule's window ('movePct' only). */
  movePct: number | null
  /** Traded within the rule's window, from the day volume ('volume' only; null: none sent). */
  volume: number | null
  /** 'maCross' only: the moving average now, and price minus it now and at the previous tick. */
  ma: number | null
  maDiff: number | null
  prevMaDiff: number | null
  /** 'spread' only: ask - bid of the quote (shared/spread.ts); null without a bid or an ask. */
  spread: Spread | null
  /**
   * 'lineCross' only: the drawn line's price at the tick's time, and price minus it now and at
   * the previous tick (alert-drawings.ts); null where the line is not drawn or the side unknown.
   */
  line: number | null
  lineDiff: number | null
  prevLineDiff: number | null
  /** 'rangeCross' only: the drawn range's prices at the tick's time; null outside its time. */
  range: { low: number; high: number } | null
}

export function conditionHolds(c: AlertCondition, x: ConditionInput): boolean {
  switch (c.kind) {
    case 'above':
      return x.price >= c.price
    case 'below':
      return x.price <= c.price
    case 'crosses':
      return x.prev !== null && crossDirection(x.prev, x.price, c.price) !== null
    case 'dayChangePct':
      if (x.dayChangePct === null) return false
      return c.pct >= 0 ? x.dayChangePct >= c.pct : x.dayChangePct <= c.pct
    case 'movePct':
      return x.movePct !== null && Math.abs(x.movePct) >= c.pct
    case 'volume':
      return x.volume !== null && x.volume >= c.amount
    case 'maCross':
      return crossedThrough(x.prevMaDiff, x.maDiff, c.direction)
    case 'spread': {
      const v = spreadIn(c.unit, x.spread)
      return v !== null && v >= c.above
    }
    case 'channel':
      return inChannel(x.price, c.low, c.high) === (c.on === 'enter')
    case 'lineCross':
      return crossedThrough(x.prevLineDiff, x.lineDiff, c.direction)
    case 'rangeCross':
      return (
        x.range !== null && inChannel(x.price, x.range.low, x.range.high) === (c.on === 'enter')
      )
  }
}

function spreadIn(unit: 'bps' | 'price', s: Spread | null): number | null {
  return s === null ? null : unit === 'bps' ? s.bps : s.price
}

function inChannel(price: number, low: number, high: number): boolean {
  return price >= low && price <= high
}

/**
 * Hysteresis: after firing, a 'rearm' rule waits until the price has moved back past the
 * threshold by hysteresisPct % of it, so a price hovering at the level does not fire on every
 * tick. Percent conditions re-arm once the measure is back under the level.
 */
export function rearmReached(c: AlertCondition, x: ConditionInput, hysteresisPct: number): boolean {
  switch (c.kind) {
    case 'above':
      return x.price < c.price - band(c.price, hysteresisPct)
    case 'below':
      return x.price > c.price + band(c.price, hysteresisPct)
    case 'crosses':
      return Math.abs(x.price - c.price) > band(c.price, hysteresisPct)
    case 'dayChangePct':
      if (x.dayChangePct === null) return false
      return c.pct >= 0 ? x.dayChangePct < c.pct : x.dayChangePct > c.pct
    case 'movePct':
      return x.movePct === null || Math.abs(x.movePct) < c.pct
    case 'volume':
      return x.volume === null || x.volume < c.amount
    case 'maCross':
      return x.ma !== null && x.maDiff !== null && Math.abs(x.maDiff) > band(x.ma, hysteresisPct)
    case 'spread': {
      // Narrowed back under the level by the band; a quote without bid or ask says nothing.
      const v = spreadIn(c.unit, x.spread)
      return v !== null && v < c.above - band(c.above, hysteresisPct)
    }
    case 'channel':
      return leftBand(c.low, c.high, c.on, x.price, hysteresisPct)
    case 'lineCross':
      return (
        x.line !== null && x.lineDiff !== null && Math.abs(x.lineDiff) > band(x.line, hysteresisPct)
      )
    case 'rangeCross':
      return x.range !== null && leftBand(x.range.low, x.range.high, c.on, x.price, hysteresisPct)
  }
}

/** Back on the other side of the nearer bound by the band, measured on that bound. */
function leftBand(
  low: number,
  high: number,
  on: 'enter' | 'exit',
  price: number,
  hysteresisPct: number,
): boolean {
  const lowBand = band(low, hysteresisPct)
  const highBand = band(high, hysteresisPct)
  return on === 'enter'
    ? price < low - lowBand || price > high + highBand
    : price > low + lowBand && price < high - highBand
}

function band(level: number, hysteresisPct: number): number {
  return (Math.abs(level) * hysteresisPct) / 100
}

/** 'up' when the price went from below the level to at/above it, 'down' for the reverse. */
export function crossDirection(prev: number, price: number, level: number): 'up' | 'down' | null {
  if (prev < level && price >= level) return 'up'
  if (prev > level && price <= level) return 'down'
  return null
}

const priceFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 8 })
const pctFormat = new Intl.NumberFormat('en-US', {
  maximumFractionDigits: 2,
  signDisplay: 'exceptZero',
})

export function formatPrice(n: number): string {
  return priceFormat.format(n)
}

/**
 * The sentence a trader reads, e.g. "BTCUSDT crossed above 65,000 (65,012.5)". "crossed" only
 * when a price on the other side was seen; a rule created when its level was already met says
 * "is below 330.16 (165.08)", which is what happened. A rule on a symbol the service quotes with
 * bid and ask only (`watches` 'mid') names the figure it watched: "EURUSD mid is above 1.085
 * (1.0851)"; the volume, spread and day-change rules read other figures and keep the symbol alone.
 */
export function alertMessage(
  symbol: string,
  c: AlertCondition,
  x: ConditionInput,
  watches?: 'mid',
): string {
  return ruleSentence(watches === 'mid' && PRICE_KINDS.has(c.kind) ? `${symbol} mid` : symbol, c, x)
}

function ruleSentence(symbol: string, c: AlertCondition, x: ConditionInput): string {
  const at = `(${formatPrice(x.price)})`
  switch (c.kind) {
    case 'above':
    case 'below': {
      const crossed =
        x.prev !== null &&
        crossDirection(x.prev, x.price, c.price) === (c.kind === 'above' ? 'up' : 'down')
      return `${symbol} ${crossed ? 'crossed' : 'is'} ${c.kind} ${formatPrice(c.price)} ${at}`
    }
    case 'crosses': {
      const dir = x.prev === null ? null : crossDirection(x.prev, x.price, c.price)
      return `${symbol} crossed ${dir === 'down' ? 'below' : 'above'} ${formatPrice(c.price)} ${at}`
    }
    case 'dayChangePct':
      return `${symbol} ${pctFormat.format(x.dayChangePct ?? 0)}% today, past ${pctFormat.format(c.pct)}% ${at}`
    case 'movePct':
      return `${symbol} moved ${pctFormat.format(x.movePct ?? 0)}% within ${c.minutes} min ${at}`
    case 'volume':
      return `${symbol} traded ${formatPrice(x.volume ?? 0)} within ${c.minutes} min, past ${formatPrice(c.amount)} ${at}`
    case 'maCross': {
      const side = (x.maDiff ?? 0) >= 0 ? 'above' : 'below'
      // An average has no tick size: six significant digits read like a price.
      const ma = formatPrice(Number((x.ma ?? 0).toPrecision(6)))
      return `${symbol} crossed ${side} ${maName(c)} at ${ma} ${at}`
    }
    case 'spread': {
      const s = x.spread
      const other =
        s === null ? '' : c.unit === 'bps' ? `${formatPrice(s.price)}, ` : `${bpsText(s.bps)}, `
      const now = s === null ? '—' : spreadText(Number(spreadIn(c.unit, s)?.toPrecision(4)), c.unit)
      return `${symbol} spread ${now} (${other}past ${spreadText(c.above, c.unit)}) ${at}`
    }
    case 'channel': {
      const range = `${formatPrice(c.low)}–${formatPrice(c.high)}`
      const crossed =
        x.prev !== null && inChannel(x.prev, c.low, c.high) !== inChannel(x.price, c.low, c.high)
      if (c.on === 'enter') return `${symbol} ${crossed ? 'entered' : 'is inside'} ${range} ${at}`
      return `${symbol} ${crossed ? 'left' : 'is outside'} ${range} ${at}`
    }
    case 'lineCross': {
      const way = (x.lineDiff ?? 0) >= 0 ? 'up' : 'down'
      // A drawn line has no tick size: six significant digits read like a price.
      const line = formatPrice(Number((x.line ?? 0).toPrecision(6)))
      return `${symbol} crossed your ${lineName(c.line)} (now ${formatPrice(x.price)}), ${way} through ${line}`
    }
    case 'rangeCross': {
      const range = `${formatPrice(c.range.low)}–${formatPrice(c.range.high)}`
      const { low, high } = c.range
      const now = `(now ${formatPrice(x.price)})`
      const crossed =
        x.prev !== null && inChannel(x.prev, low, high) !== inChannel(x.price, low, high)
      if (c.on === 'enter')
        return `${symbol} ${crossed ? 'entered' : 'is inside'} your range ${range} ${now}`
      return `${symbol} ${crossed ? 'left' : 'is outside'} your range ${range} ${now}`
    }
  }
}

function bpsText(bps: number): string {
  return spreadText(Number(bps.toPrecision(4)), 'bps')
}

/**
 * Recent prices for a 'movePct' rule, as min/max per time bucket (bucket-ring.ts), so the window
 * is exact to within one bucket.
 */
export class MoveWindow {
  private readonly ring: BucketRing
  private readonly min: Float64Array
  private readonly max: Float64Array

  constructor(windowMs: number) {
    this.ring = new BucketRing(windowMs)
    this.min = new Float64Array(this.ring.capacity)
    this.max = new Float64Array(this.ring.capacity)
  }

  /** Signed largest move in percent from any price in the window to `price`; null when empty. */
  move(now: number, price: number): number | null {
    const ring = this.ring
    ring.prune(now)
    let best: number | null = null
    for (let i = 0; i < ring.size; i++) {
      const j = ring.slot(i)
      const lo = this.min[j] as number
      const hi = this.max[j] as number
      if (lo > 0) {
        const up = ((price - lo) / lo) * 100
        if (best === null || Math.abs(up) > Math.abs(best)) best = up
      }
      if (hi > 0) {
        const down = ((price - hi) / hi) * 100
        if (best === null || Math.abs(down) > Math.abs(best)) best = down
      }
    }
    return best
  }

  add(ts: number, price: number): void {
    const placed = this.ring.place(ts)
    if (placed < 0) {
      this.min[~placed] = price
      this.max[~placed] = price
      return
    }
    if (price < (this.min[placed] as number)) this.min[placed] = price
    if (price > (this.max[placed] as number)) this.max[placed] = price
  }

  /** After a fire the move is measured afresh from the firing price. */
  reset(): void {
    this.ring.clear()
  }
}

/**
 * What traded within a 'volume' rule's window, from the quotes' cumulative day volume: each rise
 * of the total is added to its time bucket (bucket-ring.ts). A total that falls is a new trading
 * day: counting starts again from it.
 */
export class VolumeWindow {
  private readonly ring: BucketRing
  private readonly sum: Float64Array
  private lastTotal: number | null = null

  constructor(windowMs: number) {
    this.ring = new BucketRing(windowMs)
    this.sum = new Float64Array(this.ring.capacity)
  }

  /** A quote's day volume (null: the quote carries none, nothing changes). */
  add(ts: number, dayVolume: number | null): void {
    if (dayVolume === null || !Number.isFinite(dayVolume)) return
    const before = this.lastTotal
    this.lastTotal = dayVolume
    if (before === null || dayVolume <= before) return
    const traded = dayVolume - before
    const placed = this.ring.place(ts)
    if (placed < 0) this.sum[~placed] = traded
    else this.sum[placed] = (this.sum[placed] as number) + traded
  }

  /** Traded within the window ending now; null until a second day volume has arrived. */
  total(now: number): number | null {
    const ring = this.ring
    ring.prune(now)
    if (this.lastTotal === null) return null
    let total = 0
    for (let i = 0; i < ring.size; i++) total += this.sum[ring.slot(i)] as number
    return total
  }

  /** After a fire the volume is counted afresh from the firing quote. */
  reset(): void {
    this.ring.clear()
  }
}

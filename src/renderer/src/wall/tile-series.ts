import { barOpenFor, bucketEnd, bucketStart } from '../../../shared/intervals'
import type { Bar, Interval } from '../../../shared/quote'
import type { BarColumns } from '../chart/plot/bar-columns'
import { quoteDayBar } from '../chart/plot/day-bar'
import type { DayFigures } from '../chart/plot/price-range'

/**
 * Bars a tile shows: four hours of 5-minute bars, enough for a small chart's shape at a candle's
 * width a tile can tell apart, few enough to redraw 30 in a frame. A tile with fewer is building:
 * it shows them at that width at its right, on a price axis that takes in the day.
 */
export const TILE_BARS = 48

/**
 * One tile's bars as uPlot columns, changed in place: a live price moves the last bar's close,
 * high and low, or opens the next bar (in the phase of the service's bars, by the one bar rule in
 * shared/intervals), dropping the oldest beyond TILE_BARS. The same arrays are handed to uPlot on
 * every redraw: a price costs no allocation (never allocate per tick). For a market
 * whose bars the app builds, the daily tile's last bar takes the day's open, high and low from the
 * quote (plot/day-bar.ts): the day as it was, not only since the app first saw the symbol.
 */
export class TileSeries {
  readonly columns: BarColumns = [[], [], [], [], [], []]
  /** Epoch ms of the last bar's open and close; NaN before any bar. */
  private lastOpen = Number.NaN
  private lastClose = Number.NaN
  private lastTs = 0

  constructor(
    public interval: Interval,
    private readonly capacity = TILE_BARS,
    /** Bars built by the app (no candle endpoint): a daily bar takes the quote's day figures. */
    private readonly built = false,
  ) {}

  get length(): number {
    return this.columns[0].length
  }

  /** Epoch ms of the first bar's open, for the history words; undefined without bars. */
  get firstOpen(): number | undefined {
    const t = this.columns[0][0]
    return t === undefined ? undefined : t * 1000
  }

  /** The bars a fetch answered (oldest first or not), the newest `capacity` of them. */
  load(bars: readonly Bar[], interval: Interval): void {
    this.interval = interval
    const sorted = [...bars].sort((a, b) => a.openTime - b.openTime).slice(-this.capacity)
    for (const col of this.columns) col.length = 0
    this.lastOpen = Number.NaN
    this.lastClose = Number.NaN
    for (const bar of sorted) {
      // uPlot wants strictly increasing x: a repeated open is a later revision of the same bar.
      if (bar.openTime === this.lastOpen) this.setLast(bar.high, bar.low, bar.close, bar.volume)
      else this.append(bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume)
      this.lastClose = bar.closeTime
    }
  }

  /**
   * A live price at `ts` (epoch ms). Returns whether the bars changed (the tile redraws only
   * then). Prices older than the last one folded in, or before the last bar, change nothing.
   */
  applyPrice(price: number, ts: number, day: DayFigures | null = null): boolean {
    if (!(price > 0) || ts <= 0 || ts < this.lastTs) return false
    this.lastTs = ts
    if (this.built && this.interval === '1d' && day !== null) {
      const q = quoteDayBar(day, price, ts)
      if (q !== null) return this.setDay(q)
    }
    if (Number.isNaN(this.lastOpen)) {
      const open = bucketStart(this.interval, ts)
      this.append(open, price, price, price, price, 0)
      this.lastClose = bucketEnd(this.interval, open)
      return true
    }
    if (ts < this.lastOpen) return false
    if (ts <= this.lastClose) {
      const [, , highs, lows, closes] = this.columns
      const i = closes.length - 1
      if (closes[i] === price && highs[i]! >= price && lows[i]! <= price) return false
      closes[i] = price
      if (price > highs[i]!) highs[i] = price
      if (price < lows[i]!) lows[i] = price
      return true
    }
    const open = barOpenFor(this.interval, this.lastOpen, ts)
    this.append(open, price, price, price, price, 0)
    this.lastClose = bucketEnd(this.interval, open)
    return true
  }

  /** Today's bar from the quote: in place of the last bar when it is today's, else after it. */
  private setDay(q: Bar): boolean {
    if (q.openTime !== this.lastOpen) {
      if (q.openTime < this.lastOpen) return false
      this.append(q.openTime, q.open, q.high, q.low, q.close, 0)
      this.lastClose = q.closeTime
      return true
    }
    const i = this.columns[0].length - 1
    const [, opens, highs, lows, closes] = this.columns
    if (opens[i] === q.open && highs[i] === q.high && lows[i] === q.low && closes[i] === q.close)
      return false
    opens[i] = q.open
    this.setLast(q.high, q.low, q.close, this.columns[5][i] ?? 0)
    return true
  }

  private append(openMs: number, o: number, h: number, l: number, c: number, v: number): void {
    const cols = this.columns
    if (cols[0].length >= this.capacity) for (const col of cols) col.shift()
    cols[0].push(Math.floor(openMs / 1000))
    cols[1].push(o)
    cols[2].push(h)
    cols[3].push(l)
    cols[4].push(c)
    cols[5].push(v)
    this.lastOpen = openMs
  }

  private setLast(h: number, l: number, c: number, v: number): void {
    const i = this.columns[0].length - 1
    this.columns[2][i] = h
    this.columns[3][i] = l
    this.columns[4][i] = c
    this.columns[5][i] = v
  }
}

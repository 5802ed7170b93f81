import { barOpenFor, bucketEnd, bucketStart } from '../../../shared/intervals'
import type { Bar, Interval } from '../../../shared/quote'
import type { BarColumns } from '../chart/plot/bar-columns'

/** Bars a tile keeps: enough for a small chart's shape, few enough to redraw 30 in a frame. */
export const TILE_BARS = 120

/**
 * One tile's bars as uPlot columns, changed in place: a live price moves the last bar's close,
 * high and low, or opens the next bar (in the phase of the service's bars, by the one bar rule in
 * shared/intervals), dropping the oldest beyond TILE_BARS. The same arrays are handed to uPlot on
 * every redraw: a price costs no allocation (STYLE: uPlot, never allocate per tick).
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
  applyPrice(price: number, ts: number): boolean {
    if (!(price > 0) || ts <= 0 || ts < this.lastTs) return false
    this.lastTs = ts
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

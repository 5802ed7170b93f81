import type { Bar, Quote, QuotePatch, SymbolStatus } from '../../../shared/quote'
import { ALL_FIELDS, fieldBit, type FieldMask, type GridFields } from './price-fields'
import { FLASH_MS, RowState } from './row-state.svelte'
import { RowVisibility } from '../grid/row-visibility'

/**
 * All rows by symbol key, created on first sight and kept while the page lives (switching tabs
 * back and forth must not lose sparklines). Flashes end with the next price frame or through one
 * sweep timer, not a timer per tick: 10k ticks/s must not mean 10k setTimeout calls. Sparklines redraw in one pass at most once
 * a second (SPARK_PASS_MS), all moved rows together, instead of whenever each row's sample rolls.
 */
export const SPARK_PASS_MS = 1000
/**
 * A pass due within this much of a price frame is drawn in that frame: a feed ticking once a
 * second then paints one frame a second, not one for prices and another for sparklines.
 */
export const SPARK_SLACK_MS = 250
/**
 * A pass that is due waits this much longer for a price frame to draw it in; only a feed that
 * went quiet gets a frame of its own for its last points. A timer set for the due time itself
 * drew a pass put off the feed's beat (by a history drawn between two frames) in a frame of its
 * own, every second from then on: two frames a second at rest instead of one (render bench).
 */
export const SPARK_GRACE_MS = 500
/**
 * A flash ends in the first price frame after FLASH_MS, painting nothing extra; only when no
 * price frame comes within this much longer does a timer end it in a frame of its own.
 */
export const FLASH_GRACE_MS = 500
const LAST = fieldBit('last')

export interface QuoteBookOptions {
  now?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
  /** prefers-reduced-motion: no flash at all. */
  reducedMotion?: () => boolean
}

/* eslint-disable svelte/prefer-svelte-reactivity -- the collections are bookkeeping; reactivity lives in each RowState's fields, which is what keeps ticks cheap. */
export class QuoteBook {
  private readonly rows = new Map<string, RowState>()
  private readonly flashing = new Set<RowState>()
  /** The flash sweep's timer, if armed. */
  private sweepTimer: unknown = null
  private readonly sparkMoved = new Set<RowState>()
  private nextSparkPass = Number.NEGATIVE_INFINITY
  private sparkTimerSet = false
  private readonly now: () => number
  private readonly setTimer: (fn: () => void, ms: number) => unknown
  private readonly clearTimer: (handle: unknown) => void
  private readonly reducedMotion: () => boolean
  /** What the grid's columns show; every row of this book reads it (RowState.paintMask). */
  private readonly grid: GridFields = { mask: ALL_FIELDS, trend: true }
  /** Rows on or near the screen; the rest hold their values without painting. */
  readonly visibility = new RowVisibility((key) => this.row(key))
  /**
   * Bumped once per applied frame. Sorting reads rows' plain newest values (hidden rows do not
   * touch $state), so it depends on this instead to re-sort as prices move.
   */
  frame = $state(0)

  constructor(options: QuoteBookOptions = {}) {
    this.now = options.now ?? Date.now
    this.setTimer = options.setTimer ?? ((fn, ms): unknown => setTimeout(fn, ms))
    // A caller's own timers are cancelled only through its own clearTimer; a stale sweep that
    // still fires finds it is not the armed one and does nothing.
    const clearReal = (handle: unknown): void =>
      clearTimeout(handle as ReturnType<typeof setTimeout>)
    this.clearTimer = options.clearTimer ?? (options.setTimer ? (): void => {} : clearReal)
    this.reducedMotion = options.reducedMotion ?? ((): boolean => false)
  }

  row(key: string): RowState {
    let r = this.rows.get(key)
    if (r === undefined) {
      r = new RowState(key, this.grid)
      this.rows.set(key, r)
    }
    return r
  }

  has(key: string): boolean {
    return this.rows.has(key)
  }

  /**
   * The fields the grid's columns show and whether the Trend column is. Rows in view catch up on
   * a field that comes back at once; a hidden column's field then costs a tick no $state write.
   * `direct`: the grid binds its cells and rows write them (row-cell.ts), no $state in between.
   */
  setGridFields(mask: FieldMask, trend: boolean, direct = false): void {
    if (
      mask === this.grid.mask &&
      trend === this.grid.trend &&
      direct === (this.grid.direct ?? false)
    )
      return
    // Leaving direct mode: the $state fields were not written meanwhile.
    const added =
      (mask & ~this.grid.mask) !== 0 ||
      (trend && !this.grid.trend) ||
      (this.grid.direct === true && !direct)
    this.grid.mask = mask
    this.grid.trend = trend
    this.grid.direct = direct
    if (added) for (const row of this.rows.values()) if (row.painting) row.catchUp()
  }

  /** Snapshot quotes (cached on start-up): no flash, they are not price moves. */
  load(quotes: readonly Quote[], statuses: readonly SymbolStatus[]): void {
    const now = this.now()
    for (const q of quotes) {
      const row = this.row(q.key)
      row.apply(q, now)
      if (row.sparkMoved) this.sparkMoved.add(row)
    }
    this.applyStatuses(statuses, true)
    this.sparkPass(now)
    this.frame++
  }

  applyPatches(patches: readonly QuotePatch[]): void {
    const now = this.now()
    // Flashes that are due end after this frame's moves are applied: a row that moves again in
    // the same direction keeps its flash with no class written off and on again.
    const ending = this.flashing.size > 0 ? this.dueFlashes(now) : null
    const animate = !this.reducedMotion()
    for (const p of patches) {
      const row = this.row(p.key)
      const direction = row.apply(p, now)
      if (row.sparkMoved) this.sparkMoved.add(row)
      // A row out of view (or a grid without Last) has no cell to flash; it catches up without one.
      if (direction !== null && animate && (row.paintMask & LAST) !== 0) {
        // Patches arrive merged per row per frame (PatchCoalescer): one class write at most.
        row.setFlash(direction)
        row.flashUntil = now + FLASH_MS
        this.flashing.add(row)
      }
    }
    if (ending !== null) for (const row of ending) if (!this.flashing.has(row)) row.setFlash(null)
    // Each frame ends what is due itself, so the sweep waits for the frames to stop: re-armed
    // here, it never wakes the page while a feed ticks (once a second, that was a wakeup a second).
    if (this.flashing.size > 0) this.armSweep(FLASH_MS + FLASH_GRACE_MS)
    if (this.sparkMoved.size > 0) {
      if (now >= this.nextSparkPass - SPARK_SLACK_MS) this.sparkPass(now)
      else this.scheduleSparkPass(this.nextSparkPass + SPARK_GRACE_MS - now)
    }
    if (patches.length > 0) this.frame++
  }

  /** A row's sparkline history (1-minute bars' closes at their open times), before live prices. */
  seedSpark(key: string, bars: readonly Bar[]): boolean {
    const row = this.row(key)
    const now = this.now()
    if (
      !row.spark.seed(
        bars.map((b) => ({ t: b.openTime, v: b.close })),
        now,
      )
    )
      return false
    this.sparkMoved.add(row)
    if (now >= this.nextSparkPass) this.sparkPass(now)
    else this.scheduleSparkPass(this.nextSparkPass - now)
    return true
  }

  /** Redraws every sparkline that gained points since the last pass, together. */
  private sparkPass(now: number): void {
    for (const row of this.sparkMoved) {
      row.sparkMoved = false
      // Hidden rows keep collecting points; their line is drawn once they come into view.
      if (row.paintsTrend) row.redrawTrend()
      else row.sparkHeld = true
    }
    this.sparkMoved.clear()
    this.nextSparkPass = now + SPARK_PASS_MS
  }

  /** The last points of a feed that went quiet still get drawn, `ms` from now at the latest. */
  private scheduleSparkPass(ms: number): void {
    if (this.sparkTimerSet) return
    this.sparkTimerSet = true
    this.setTimer(() => {
      this.sparkTimerSet = false
      const now = this.now()
      if (this.sparkMoved.size === 0) return
      if (now >= this.nextSparkPass) this.sparkPass(now)
      else this.scheduleSparkPass(this.nextSparkPass + SPARK_GRACE_MS - now)
    }, ms)
  }

  /** `complete`: the list names every symbol with a problem, so rows not in it are fine again. */
  applyStatuses(statuses: readonly SymbolStatus[], complete: boolean): void {
    const seen = new Set<string>()
    for (const s of statuses) {
      this.row(s.key).applyStatus(s)
      seen.add(s.key)
    }
    if (!complete) return
    for (const [key, row] of this.rows) if (!seen.has(key)) row.applyStatus(null)
  }

  private armSweep(ms: number): void {
    if (this.sweepTimer !== null) this.clearTimer(this.sweepTimer)
    const timer: unknown = this.setTimer(() => {
      if (this.sweepTimer === timer) this.sweep()
    }, ms)
    this.sweepTimer = timer
  }

  private sweep(): void {
    this.sweepTimer = null
    const now = this.now()
    for (const row of this.dueFlashes(now)) row.setFlash(null)
    if (this.flashing.size === 0) return
    let next = Number.POSITIVE_INFINITY
    for (const row of this.flashing) next = Math.min(next, row.flashUntil)
    this.armSweep(Math.max(16, next + FLASH_GRACE_MS - now))
  }

  /** Takes the flashes that are due out of `flashing`; the caller ends them. */
  private dueFlashes(now: number): RowState[] {
    const due: RowState[] = []
    for (const row of this.flashing) {
      if (row.flashUntil > now) continue
      this.flashing.delete(row)
      due.push(row)
    }
    return due
  }
}

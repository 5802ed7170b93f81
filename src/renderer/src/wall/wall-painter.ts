import type { DayFigures } from '../chart/plot/price-range'
import type { TileSeries } from './tile-series'

/** What the painter needs of a tile on the wall. */
export interface PaintedTile {
  readonly key: string
  /** The bars it draws now (its symbol at the wall's interval). */
  series(): TileSeries
  /** On screen (an IntersectionObserver's verdict): only these are drawn. */
  visible: boolean
  /** Redraws its chart from its series' columns (uPlot setData) and its price text. */
  draw(last: number | null): void
}

/** A symbol's row: its newest figures and their time, painted or not (RowState). */
export type PriceOf = (key: string) => {
  readonly newest: Readonly<DayFigures> & { readonly last: number | null }
  readonly ts: number
}

/**
 * The wall's pace: ten times a second. A mini chart's last bar moving ten times a second reads as
 * live, and 30 tiles cost 300 canvas redraws a second instead of one per price frame (up to 60
 * each). While the wall is shown the page's price frames come at this pace (AppState.quoteFrameMs),
 * so each tile redraw and its price text land in a frame the page renders anyway. Wall bench, 30
 * symbols at 10 ticks/s each, on a loaded 2-core machine: one redraw per price frame (29 frames/s)
 * spent 440 ms/s of the main thread in paint; redraws at this pace on a timer of their own, between
 * the page's 60 price frames a second, still rendered 80 frames a second (docs/bench-wall.md).
 */
export const WALL_FRAME_MS = 100

/** Colours a tile paints with, read from the theme once per pass, not once per tile. */
export interface TileTheme {
  up: string
  down: string
  accent: string
  /** The previous close's dotted line. */
  muted: string
}

/**
 * Live prices onto the wall: once per applied price frame (the quote book's `frame`, at the
 * wall's pace while it is shown), every tile on screen folds its symbol's newest price into its
 * bars and redraws only if they changed. uPlot batches each chart's redraw to the end of the task,
 * so 30 tiles cost at most one paint a frame, and tiles scrolled out of view cost nothing until
 * they come back (`show`). Nothing here allocates per price.
 */
export class WallPainter {
  private readonly tiles = new Set<PaintedTile>()
  private current: TileTheme | null = null

  constructor(
    private readonly priceOf: PriceOf,
    /** Reads the theme's colours (getComputedStyle): once per pass, before any tile writes. */
    private readonly readTheme: () => TileTheme,
  ) {}

  /** The colours of the current pass (read now if no pass ran yet). */
  get theme(): TileTheme {
    return (this.current ??= this.readTheme())
  }

  /** What the quote says of a symbol's day now: a building tile's price axis takes it in. */
  day(key: string): DayFigures {
    return this.priceOf(key).newest
  }

  add(tile: PaintedTile): () => void {
    this.tiles.add(tile)
    return () => this.tiles.delete(tile)
  }

  /** A price frame was applied: returns how many tiles redrew. */
  frame(): number {
    this.current = null
    let n = 0
    for (const tile of this.tiles) {
      if (!tile.visible) continue
      const row = this.priceOf(tile.key)
      const last = row.newest.last
      if (last === null || !tile.series().applyPrice(last, row.ts, row.newest)) continue
      if (n === 0) this.current = this.readTheme()
      tile.draw(last)
      n++
    }
    return n
  }

  /** New bars for a symbol (a fetch answered): its tiles on screen draw them. */
  refresh(key: string): void {
    for (const tile of this.tiles) if (tile.key === key && tile.visible) this.show(tile)
  }

  /** A tile came into view or got new bars: catch up with the newest price and draw. */
  show(tile: PaintedTile): void {
    this.current = null
    const row = this.priceOf(tile.key)
    const last = row.newest.last
    if (last !== null) tile.series().applyPrice(last, row.ts, row.newest)
    tile.draw(last)
  }
}

/**
 * A tile's price text, written by the painter as prices move (like the grid's bound cells,
 * grid/grid-cells.ts): a text node set in place, only when the shown figure changes.
 */
export class TilePrice {
  private shown: number | null = null

  constructor(
    private readonly el: HTMLElement,
    private readonly format: (price: number) => string,
  ) {}

  show(last: number | null): void {
    if (last === null || last === this.shown) return
    this.shown = last
    this.el.textContent = this.format(last)
  }
}

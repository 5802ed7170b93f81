import type uPlot from 'uplot'

/**
 * A building tile's price axis, labelled: the top, middle and bottom of its price range (which
 * takes in the day, chart/plot/price-range.ts) written along the plot's left edge, away from the
 * bars at the right, so a few bars on a tile
 * are read against prices, never as a line stretched from top to bottom. Written after each draw,
 * only when a figure changes (no DOM work per tick otherwise); hidden once the tile is full. The
 * tile says the same as data (data-building, data-y-min, data-y-max) for tests and tools.
 */
export class TileAxis {
  private shown: string | null = null

  constructor(
    private readonly el: HTMLElement,
    private readonly tile: HTMLElement,
    private readonly format: (price: number) => string,
  ) {}

  show(u: uPlot, building: boolean): void {
    const y = u.scales.y
    const min = y?.min
    const max = y?.max
    const text =
      building && min != null && max != null
        ? [max, (max + min) / 2, min].map((v) => this.format(v)).join('|')
        : ''
    if (text === this.shown) return
    this.shown = text
    this.el.hidden = text === ''
    this.tile.dataset.building = String(text !== '')
    if (text === '') return
    const figures = text.split('|')
    for (let i = 0; i < this.el.children.length; i++)
      this.el.children[i]!.textContent = figures[i] ?? ''
    this.tile.dataset.yMin = String(min)
    this.tile.dataset.yMax = String(max)
  }
}

import type { FieldMask, PriceValues } from '../state/price-fields'

export type Flash = 'up' | 'down' | null

/**
 * A grid cell a row writes itself, outside Svelte's reactive graph. A tick then costs the cells
 * it changed a text write each, not a $state write, a scheduled effect and a re-run template
 * (render bench at rest: that bookkeeping was most of the page's script time and allocation).
 * The cell is bound while it is in the DOM (QuoteRow's attachments) and rendered at once on
 * binding, so a row scrolling in never shows an old number.
 */
export interface RowCell {
  /** The fields whose change rewrites this cell. */
  readonly reads: FieldMask
  /** Whether it shows the price move (the Last cell). */
  readonly flashes: boolean
  render(values: Readonly<PriceValues>): void
  flash(direction: Flash): void
}

/** A sparkline drawn by the row when its series gained points (QuoteBook's once-a-second pass). */
export interface TrendCell {
  draw(): void
}

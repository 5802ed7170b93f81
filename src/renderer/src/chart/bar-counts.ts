/** Bars on opening a chart, and the most one getCandles may ask for (spec: Limits, `limit`). */
export const FIRST_BARS = 300
export const MAX_BARS = 5000
/**
 * Bars a detail chart shows when it has them: with fewer it is building, and stands them at their
 * width at the right of a window this wide (plot/price-range.ts), the price axis taking in the day.
 */
export const DETAIL_WINDOW = 60

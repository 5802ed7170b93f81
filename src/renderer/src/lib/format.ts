import type { Market } from '../../../shared/markets/market'
import { formatClock } from '../../../shared/markets/clock-text'
import { formatPrice } from '../../../shared/figures/figure-text'

/**
 * The renderer's words for time and for a mid price. Figures themselves (prices, changes,
 * percentages, amounts) are written by shared/figures/figure-text.ts, which the browser host's
 * cached snapshot uses too; clock times by shared/markets/clock-text.ts.
 */

const AGE_STEP_S = 5

/**
 * How old a value is: "just now", "5 s ago" / "10 s ago" (in 5 s steps), "5 min ago" within the
 * hour, then "as of 14:03". The steps are coarse on purpose: a text that changes every second on
 * every row keeps the window repainting all day at rest (main-thread work every second with the
 * feed off), and a trader reads "10 s" and "12 s" the same way.
 */
export function formatAge(ts: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - ts) / 1000))
  if (seconds < AGE_STEP_S) return 'just now'
  if (seconds < 60) return `${seconds - (seconds % AGE_STEP_S)} s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`
  return `as of ${formatClock(ts, now)}`
}

/**
 * When a price that is not live was made, short enough to sit beside its badge in the Source
 * column ("as of Nov 21 14:03" was cut there): "as of 14:03" today, the date alone ("Nov 21")
 * before; the tooltip keeps the time.
 */
export function formatAsOf(ts: number, now: number): string {
  const clock = formatClock(ts, now)
  const space = clock.lastIndexOf(' ')
  return space < 0 ? `as of ${clock}` : clock.slice(0, space)
}

/** formatAge for the Source column: past the hour, formatAsOf. */
export function formatAgeShort(ts: number, now: number): string {
  return now - ts < 3_600_000 ? formatAge(ts, now) : formatAsOf(ts, now)
}

/**
 * What a price that is the mid of bid and ask stands for, in the words its "mid" mark carries
 * (the grid's title and screen-reader text, the strip, the tiles): "mid of bid 1.0841 and ask
 * 1.0843".
 */
export function midText(
  bid: number | null | undefined,
  ask: number | null | undefined,
  market: Market,
  symbol: string,
): string {
  return `mid of bid ${formatPrice(bid, market, symbol)} and ask ${formatPrice(ask, market, symbol)}`
}

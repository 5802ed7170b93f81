import type { Bar } from '../../shared/quote'

/** Flat bars at these closes (open = high = low = close), back to back from `start`, `step` ms each. */
export function barsAt(closes: readonly number[], start: number, step: number): Bar[] {
  return closes.map((c, i) => ({
    openTime: start + i * step,
    closeTime: start + (i + 1) * step - 1,
    open: c,
    high: c,
    low: c,
    close: c,
    volume: 1,
  }))
}

/** `n` closed 15m bars at a flat `close`, the last one closed before the bar `now` is in. */
export function closedBars(n: number, close: number, now: number): Bar[] {
  const step = 15 * 60_000
  return barsAt(Array<number>(n).fill(close), Math.floor(now / step) * step - n * step, step)
}

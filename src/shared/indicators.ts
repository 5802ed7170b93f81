/**
 * Chart indicators over bars the app already has: pure functions from columns to a column of the
 * same length, null where the indicator is not defined yet (uPlot leaves a gap there). No data is
 * fetched for them, so adding one costs no request.
 */
export type Column = ReadonlyArray<number>
export type Line = Array<number | null>

/** Periods a trader can pick for SMA, EMA and RSI. */
export const MIN_PERIOD = 2
export const MAX_PERIOD = 500

/** Simple moving average: the mean of the last `period` values. */
export function sma(values: Column, period: number): Line {
  const out: Line = new Array<number | null>(values.length).fill(null)
  let sum = 0
  for (let i = 0; i < values.length; i++) {
    sum += values[i] ?? 0
    if (i >= period) sum -= values[i - period] ?? 0
    if (i >= period - 1) out[i] = sum / period
  }
  return out
}

/**
 * Exponential moving average, k = 2 / (period + 1), seeded with the SMA of the first `period`
 * values (the common convention: the first EMA is not the first close, which would overweight it).
 */
export function ema(values: Column, period: number): Line {
  const out: Line = new Array<number | null>(values.length).fill(null)
  if (values.length < period) return out
  const k = 2 / (period + 1)
  let prev = 0
  for (let i = 0; i < period; i++) prev += values[i] ?? 0
  prev /= period
  out[period - 1] = prev
  for (let i = period; i < values.length; i++) {
    prev = prev + k * ((values[i] ?? 0) - prev)
    out[i] = prev
  }
  return out
}

/**
 * Relative strength index with Wilder's smoothing: the first average gain and loss are plain means
 * over `period` changes, each later one is (previous x (period - 1) + this change) / period. A
 * window with no losses reads 100, one with no change at all 50.
 */
export function rsi(closes: Column, period: number): Line {
  const out: Line = new Array<number | null>(closes.length).fill(null)
  if (closes.length <= period) return out
  let gain = 0
  let loss = 0
  for (let i = 1; i <= period; i++) {
    const d = (closes[i] ?? 0) - (closes[i - 1] ?? 0)
    if (d > 0) gain += d
    else loss -= d
  }
  gain /= period
  loss /= period
  out[period] = rsiOf(gain, loss)
  for (let i = period + 1; i < closes.length; i++) {
    const d = (closes[i] ?? 0) - (closes[i - 1] ?? 0)
    gain = (gain * (period - 1) + Math.max(d, 0)) / period
    loss = (loss * (period - 1) + Math.max(-d, 0)) / period
    out[i] = rsiOf(gain, loss)
  }
  return out
}

function rsiOf(gain: number, loss: number): number {
  if (loss === 0) return gain === 0 ? 50 : 100
  return 100 - 100 / (1 + gain / loss)
}

/** The UTC day of a bar time in seconds: VWAP's default session. */
export const utcDay = (t: number): number => Math.floor(t / 86_400)

/**
 * Volume-weighted average price of the typical price (high + low + close) / 3, restarting when
 * `session` of the bar's time changes (a new trading day). Before any volume in a session there is
 * no VWAP (null), never a 0: a market the service sends no volume for shows no line.
 */
export function vwap(
  times: Column,
  highs: Column,
  lows: Column,
  closes: Column,
  volumes: Column,
  session: (t: number) => number = utcDay,
): Line {
  const out: Line = new Array<number | null>(times.length).fill(null)
  let day = Number.NaN
  let pv = 0
  let v = 0
  for (let i = 0; i < times.length; i++) {
    const d = session(times[i] ?? 0)
    if (d !== day) {
      day = d
      pv = 0
      v = 0
    }
    const vol = volumes[i] ?? 0
    pv += (((highs[i] ?? 0) + (lows[i] ?? 0) + (closes[i] ?? 0)) / 3) * vol
    v += vol
    out[i] = v > 0 ? pv / v : null
  }
  return out
}

import type { ChartStudies } from '../../../shared/chart-prefs'
import type { Interval } from '../../../shared/quote'
import { MAX_PERIOD, MIN_PERIOD, ema, rsi, sma, vwap, type Line } from '../../../shared/indicators'
import type { BarColumns } from './plot/bar-columns'

/**
 * What the detail chart draws for a symbol's studies, built from the bars it already has: price
 * overlays (SMA, EMA, VWAP) on the price scale, RSI for its own pane, and the compare line.
 */
export interface Overlay {
  label: string
  colour: string
  values: Line
}

/** Distinct from the candles' green and red, readable on the light and the dark theme. */
const PALETTE = ['#d08700', '#8e44ad', '#1f77b4', '#c2185b', '#6d8f00', '#7f5539']
export const COMPARE_COLOUR = '#00897b'
export const RSI_COLOUR = '#8e44ad'

/** Intraday bars: VWAP is a one-session figure and means nothing on daily and longer bars. */
export function isIntraday(interval: Interval): boolean {
  return (
    interval === '1m' ||
    interval === '5m' ||
    interval === '15m' ||
    interval === '1h' ||
    interval === '4h'
  )
}

export function priceOverlays(
  cols: BarColumns,
  studies: ChartStudies,
  interval: Interval,
): Overlay[] {
  const [times, , highs, lows, closes, volumes] = cols
  const out: Overlay[] = []
  const colour = (): string => PALETTE[out.length % PALETTE.length] ?? '#888'
  for (const p of studies.sma)
    out.push({ label: `SMA ${p}`, colour: colour(), values: sma(closes, p) })
  for (const p of studies.ema)
    out.push({ label: `EMA ${p}`, colour: colour(), values: ema(closes, p) })
  if (studies.vwap && isIntraday(interval))
    out.push({ label: 'VWAP', colour: colour(), values: vwap(times, highs, lows, closes, volumes) })
  return out
}

export function rsiOverlay(cols: BarColumns, studies: ChartStudies): Overlay | null {
  if (studies.rsi === null) return null
  return { label: `RSI ${studies.rsi}`, colour: RSI_COLOUR, values: rsi(cols[4], studies.rsi) }
}

/**
 * The other symbol's closes on the first symbol's price scale, both equal at the first visible
 * bar: the chart's percent axis (value / base - 1) then reads the same for both lines. Bars are
 * matched by open time; a bar the other symbol lacks is a gap. `from` is the first visible index;
 * the base is the first bar at or after it where both have a price.
 */
export function compareLine(
  cols: BarColumns,
  other: { times: readonly number[]; closes: readonly number[] },
  from: number,
): { values: Line; base: number | null } {
  const [times, , , , closes] = cols
  const byTime = new Map<number, number>()
  other.times.forEach((t, i) => {
    const c = other.closes[i]
    if (c !== undefined && c > 0) byTime.set(t, c)
  })
  const raw = times.map((t) => byTime.get(t) ?? null)
  let b = Math.max(0, from)
  while (b < times.length && (raw[b] === null || !(closes[b]! > 0))) b++
  const otherBase = raw[b]
  const mainBase = closes[b]
  if (otherBase === undefined || otherBase === null || mainBase === undefined)
    return { values: raw.map(() => null), base: null }
  const scale = mainBase / otherBase
  return { values: raw.map((v) => (v === null ? null : v * scale)), base: mainBase }
}

/** "+1.25%" on the percent axis for a price on the first symbol's scale. */
export function percentFrom(base: number, value: number): string {
  const pct = (value / base - 1) * 100
  return `${pct > 0 ? '+' : ''}${pct.toFixed(Math.abs(pct) < 10 ? 2 : 1)}%`
}

/** A study the trader asked for: the studies with it on, or why not. */
export function withStudy(
  studies: ChartStudies,
  kind: 'ema' | 'sma' | 'rsi',
  periodText: string,
): { ok: true; studies: ChartStudies } | { ok: false; message: string } {
  const p = Number(periodText)
  if (!Number.isInteger(p) || p < MIN_PERIOD || p > MAX_PERIOD)
    return {
      ok: false,
      message: `The period must be a whole number from ${MIN_PERIOD} to ${MAX_PERIOD}`,
    }
  if (kind === 'rsi') return { ok: true, studies: { ...studies, rsi: p } }
  const name = kind.toUpperCase()
  if (studies[kind].includes(p)) return { ok: false, message: `${name} ${p} is already on` }
  if (studies[kind].length >= 4) return { ok: false, message: `At most four ${name} lines` }
  return { ok: true, studies: { ...studies, [kind]: [...studies[kind], p] } }
}

/** What is on, each with the change that takes it off (the chips under the form). */
export function activeStudies(s: ChartStudies): Array<{ label: string; off: ChartStudies }> {
  return [
    ...s.sma.map((p) => ({ label: `SMA ${p}`, off: { ...s, sma: s.sma.filter((x) => x !== p) } })),
    ...s.ema.map((p) => ({ label: `EMA ${p}`, off: { ...s, ema: s.ema.filter((x) => x !== p) } })),
    ...(s.rsi !== null ? [{ label: `RSI ${s.rsi}`, off: { ...s, rsi: null } }] : []),
    ...(s.compare !== null ? [{ label: `vs ${s.compare}`, off: { ...s, compare: null } }] : []),
  ]
}

/**
 * How wide a figure column of the watchlist grid is, in ch, estimated from its texts: the grid
 * (renderer grid/column-widths.svelte.ts) and the browser host's cached snapshot of it
 * (src/web/cached-desk-html.ts) size their columns alike, so the one replaces the other in place.
 */

/**
 * A figure's width in ch, without laying it out.
 * With tabular figures every digit is 1ch; the weights below for separators, signs and letters
 * are at or above their advance in the UI fonts on Linux, macOS and Windows (DejaVu Sans,
 * Liberation Sans/Arial, SF, Segoe UI). The end-to-end test measures the real boxes in Chromium.
 */
export function textCh(text: string): number {
  let w = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) w += 1
    else if (c === 44 || c === 46)
      w += 0.5 // , .
    else if (c === 37 || c === 77 || c === 0x2014)
      w += 1.8 // % M —
    else w += 1.4 // + − K B T and the rest
  }
  return w
}

/** Past these widths a figure is shortened instead (123,456,789.12 still fits a price). */
export const FIGURE_CAP_CH = {
  price: 14,
  change: 14,
  percent: 10,
  amount: 10,
  spread: 22,
} as const
export type FigureKind = keyof typeof FIGURE_CAP_CH

/** Headroom over the estimate, so sub-pixel rounding never puts the last digit on the edge. */
const SLACK_CH = 0.5

/** Header text is bold and proportional: letters weighed generously, plus room for the sort arrow. */
export function headerCh(label: string): number {
  let w = 0
  for (const c of label) {
    if (c === ' ') w += 0.6
    else if (c === '%' || c === 'm' || c === 'w') w += 1.8
    else if (c >= 'A' && c <= 'Z') w += c === 'M' || c === 'W' ? 1.9 : 1.3
    else w += 1.05
  }
  return w * 1.1 + 1.4
}

/** The column's width: what its widest text needs, with headroom, in half-ch steps, up to `cap`. */
export function columnWidthCh(need: number, cap: number): number {
  return Math.min(cap, Math.ceil((need + SLACK_CH) * 2) / 2)
}

/**
 * A tile's colour and figure: the change in percent, in one of eleven steps from a deep red
 * (-3 % and below) through a grey for flat (within ±0.1 %) to a deep green (+3 % and above).
 * Every step's background carries white text at AA contrast (heatmap.spec.ts checks it).
 */
export const STEP_EDGES = [-3, -2, -1, -0.5, -0.1, 0.1, 0.5, 1, 2, 3] as const
export const STEPS = STEP_EDGES.length + 1
/** The step of no figure at all (no price yet, no base for "since"). */
export const NO_STEP = -1

/** Backgrounds from the deepest red to the deepest green; white text on each. */
export const STEP_COLOURS = [
  '#7f1d1d',
  '#991b1b',
  '#b42323',
  '#b54545',
  '#9a5454',
  '#5b5e66',
  '#4f7a5c',
  '#3a7a4d',
  '#237a43',
  '#166534',
  '#0f4f28',
] as const
export const NO_FIGURE_COLOUR = '#6b7280'

/** The step of a change in percent (0 = deepest red, STEPS - 1 = deepest green). */
export function changeStep(pct: number | null): number {
  if (pct === null || !Number.isFinite(pct)) return NO_STEP
  let i = 0
  while (i < STEP_EDGES.length && pct >= STEP_EDGES[i]!) i++
  return i
}

/** "+1.25%", "−0.40%", "0.00%"; "—" without a figure. Hundredths of a percent, as the grid. */
export function changeText(hundredths: number | null): string {
  if (hundredths === null) return '—'
  const abs = Math.abs(hundredths)
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}%`
  return hundredths > 0 ? `+${text}` : hundredths < 0 ? `−${text}` : text
}

/** A change in percent as whole hundredths (what the tile shows, and compares to skip writes). */
export function hundredthsOf(pct: number | null): number | null {
  return pct === null || !Number.isFinite(pct) ? null : Math.round(pct * 100)
}

import type { Figure } from './figures'

/**
 * How the guard judges one figure of a new run against the runs recorded before it on the same
 * machine (history.ts). Each recorded commit was measured at least twice; the spread of a
 * commit's own runs is what the figure moves by with nothing changed. The baseline is the median
 * of the recent commits' medians (one lucky or unlucky commit does not move it), and a run slips
 * when it is worse than the baseline by more than the largest such spread seen recently, and by
 * more than the figure's resolution:
 *
 *   limit = baseline + max(spread, resolution)   (lower is better; minus for higher)
 *
 * Too few runs recorded to know a spread (fewer than two of one commit): the figure is reported,
 * not judged.
 */
export interface CommitRuns {
  commit: string
  /** This figure's value in each recorded run of the commit, oldest first. */
  values: number[]
}

export type Verdict =
  | { kind: 'ok' | 'slip'; value: number; baseline: number; spread: number; limit: number }
  | { kind: 'unjudged'; value: number; why: string }
  | { kind: 'missing' }

/** Commits looked back over, newest first: enough for a spread, recent enough to be today's code. */
export const LOOK_BACK = 10

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

export function judge(figure: Figure, value: number | undefined, history: CommitRuns[]): Verdict {
  if (value === undefined) return { kind: 'missing' }
  const recent = history.filter((c) => c.values.length > 0).slice(-LOOK_BACK)
  const repeated = recent.filter((c) => c.values.length >= 2)
  if (repeated.length === 0)
    return { kind: 'unjudged', value, why: 'no commit recorded twice on this machine yet' }
  const spread = Math.max(...repeated.map((c) => Math.max(...c.values) - Math.min(...c.values)))
  const baseline = median(recent.map((c) => median(c.values)))
  const allowed = Math.max(spread, figure.resolution)
  const limit = figure.better === 'lower' ? baseline + allowed : baseline - allowed
  const slipped = figure.better === 'lower' ? value > limit : value < limit
  return { kind: slipped ? 'slip' : 'ok', value, baseline, spread, limit }
}

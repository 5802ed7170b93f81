/**
 * `npm run test:long` (scripts/test-long.mjs) sets TICKDESK_LONG=1: the crash and fuzz tests then
 * run at scale (1000 kill -9 trials, ~1.6M fuzzed inputs) instead of CI's short run. Not in CI.
 * TICKDESK_LONG_FRACTION (test-long's `--fraction f`) runs a share f of the long mode's counts,
 * never fewer than CI's: a smaller but real run on a busy machine, recorded in its figures.
 */
export const LONG = process.env.TICKDESK_LONG === '1'

export const LONG_FRACTION = Math.min(
  1,
  Math.max(0, Number(process.env.TICKDESK_LONG_FRACTION ?? 1)),
)

/** CI's count, or the long mode's (times the fraction, at least CI's). */
export const scaled = (short: number, long: number): number =>
  LONG ? Math.max(short, Math.round(long * LONG_FRACTION)) : short

/**
 * A figure for the long run's record (docs/figures/alerts-long.json): one line on stdout that
 * scripts/test-long.mjs collects. The test prints what it counted, never what it was asked for.
 */
export function reportFigure(name: string, figures: Record<string, unknown>): void {
  console.log(`long-figure ${JSON.stringify({ name, ...figures })}`)
}

/**
 * `npm run test:long` (scripts/test-long.mjs) sets TICKDESK_LONG=1: the crash and fuzz tests then
 * run at scale (1000 kill -9 trials, ~1M fuzzed inputs) instead of CI's short run. Not in CI.
 */
export const LONG = process.env.TICKDESK_LONG === '1'

/** CI's count, or the long mode's. */
export const scaled = (short: number, long: number): number => (LONG ? long : short)

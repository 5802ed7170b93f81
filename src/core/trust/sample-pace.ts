/**
 * How often a trusted stream is checked against REST, within the budget. Each trusted market's
 * stream gets one sample (one streamed symbol asked over REST and held against its last push)
 * every sampleEveryMs: at least MIN_SAMPLE_EVERY_MS, and stretched so that samples, were each a
 * call of its own, would spend at most SAMPLE_SHARE of the plan's requests a minute. On Free
 * (30 RPM, 1.2 calls a minute for samples) with three streamed markets that is one sample a
 * market every 3 min: at most 1 call a minute, 3.3 % of the plan. A sample rides in a poll call
 * of its endpoint family going anyway when one goes within RIDE_WAIT_MS (poll-queue.ts riders),
 * costing nothing; only a family with nothing polled pays for its samples.
 */
export const SAMPLE_SHARE = 0.04
export const MIN_SAMPLE_EVERY_MS = 3 * 60_000
/** The first sample after a market is trusted comes sooner: a frozen reading shows in a minute. */
export const FIRST_SAMPLE_MS = 60_000

export function sampleEveryMs(rpm: number, markets: number): number {
  const perMinute = SAMPLE_SHARE * Math.max(1, rpm)
  return Math.max(MIN_SAMPLE_EVERY_MS, (Math.max(1, markets) * 60_000) / perMinute)
}

/**
 * How much later than sampleEveryMs a sample may come: up to this share of it. A service whose
 * prices move on a fixed cycle (a REST cache refreshed every 10 s, a feed that steps on the
 * minute) and samples on a period that is a multiple of it meet at the same point of the cycle
 * every time: a host whose samples land just across a step had every sample disagree and polled
 * every few minutes, while another host never met one (the bench feed's 10 s fall against 180 s,
 * docs/performance.md). Stretched by a different share each turn, samples meet every point of
 * such a cycle in turn, and never come sooner than the pace allows.
 */
export const SAMPLE_STRETCH = 0.25
/** The golden ratio's fraction: turn k's share, k times it modulo 1, never repeats and spreads evenly. */
const GOLDEN = 0.6180339887498949

/** The wait before a trusted market's next sample, its `turn`-th (0 first: no stretch). */
export function sampleWaitMs(everyMs: number, turn: number): number {
  const share = (turn * GOLDEN) % 1
  return Math.round(everyMs * (1 + SAMPLE_STRETCH * share))
}

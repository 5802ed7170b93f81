/** A seeded PRNG (mulberry32): deterministic sequences for the simulator and for jitter in tests. */
export type Random = () => number

export function seededRandom(seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Full-jitter backoff (AWS architecture blog): uniform in [0, min(cap, base * 2^attempt)]. */
export function fullJitterDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: Random,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30))
  return Math.floor(random() * ceiling)
}

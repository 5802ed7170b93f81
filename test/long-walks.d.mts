// Types of test/long-walks.mjs (plain ESM, read by scripts/test-long.mjs without a build).
export interface LongWalk {
  /** A spec file or a folder of them, from the repository's root. */
  path: string
  /** Left out of npm test; run only by `npm run test:long`. */
  longRunOnly: boolean
}
export const LONG_WALKS: readonly LongWalk[]
export const LONG_RUN_TARGETS: string[]
export function longRunOnly(env?: Record<string, string | undefined>): string[]

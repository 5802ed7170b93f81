// Which crash, ownership and fuzz walks run where: one table, read by vitest.config.ts (which
// leaves the long-run-only walks out of npm test) and by scripts/test-long.mjs (which runs every
// walk at scale). Plain ESM so the script runs it without a build; types in long-walks.d.mts.
//
// npm test keeps one walk of each kind: the crash points of stdout and a webhook, and half the
// ownership pairs. The four marked `longRunOnly` took 316 s of the 2,851 s the suite's files took
// in all (one whole run here, 2026-11-29), and CI must end within 10 minutes; the long run runs
// them at scale and records what each showed in docs/figures/alerts-long.json, which
// test/faults/alerts-figures.spec.ts holds to the code. test/scripts/long-walks.spec.ts holds the
// table to the files on disk.

/** Every walk a whole `npm run test:long` runs, in its order; `longRunOnly`: not in npm test. */
export const LONG_WALKS = [
  { path: 'test/faults/kill-mid-save.spec.ts', longRunOnly: false },
  { path: 'test/faults/alerts-crash-points.spec.ts', longRunOnly: false },
  { path: 'test/faults/alerts-crash-points-drawings.spec.ts', longRunOnly: true },
  { path: 'test/faults/alerts-crash-points-desktop.spec.ts', longRunOnly: true },
  { path: 'test/faults/alerts-crash-points-browser.spec.ts', longRunOnly: true },
  { path: 'test/faults/alerts-exactly-once.spec.ts', longRunOnly: false },
  { path: 'test/faults/alerts-browser-host.spec.ts', longRunOnly: false },
  { path: 'test/faults/alerts-ownership-pairs.spec.ts', longRunOnly: false },
  { path: 'test/faults/alerts-ownership-pairs-odd.spec.ts', longRunOnly: true },
  { path: 'test/faults/alerts-ownership-stop.spec.ts', longRunOnly: false },
  { path: 'test/faults/alerts-takeover.spec.ts', longRunOnly: false },
  { path: 'test/faults/alerts-ownership-folders.spec.ts', longRunOnly: false },
  { path: 'test/fuzz', longRunOnly: false },
]

/** What a whole `npm run test:long` hands vitest. */
export const LONG_RUN_TARGETS = LONG_WALKS.map((walk) => walk.path)

/**
 * The walks npm test leaves out: none when TICKDESK_LONG=1 (the long run) or TICKDESK_ALL_WALKS=1
 * puts them back.
 */
export function longRunOnly(env = process.env) {
  if (env.TICKDESK_LONG === '1' || env.TICKDESK_ALL_WALKS === '1') return []
  return LONG_WALKS.filter((walk) => walk.longRunOnly).map((walk) => walk.path)
}

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import {
  changedSince,
  CODE_UNDER_TEST,
  DOC_PATH,
  FIGURES_PATH,
  figuresIn,
  render,
} from '../../scripts/long-figures.mjs'
import { CRASH_POINTS, TAKEOVER_POINTS } from '../../src/app/alerts/crash-points'
import { OUTCOME } from './crash-outcomes'

/**
 * The long run's figures are read from code, not written by hand, and know the build they measured:
 * docs/alerts-guarantees.md shows exactly what docs/figures/alerts-long.json says (the JSON
 * `npm run test:long` wrote from the tests' own counts), and that run walked every crash point
 * of every target with the outcome the table promises. Fast: it reads two files, runs nothing.
 */

const root = new URL('../../', import.meta.url)
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8')

interface Row {
  trials: number
  lost: number
  repeated: number
  replayed: number
}
const figures = JSON.parse(read(FIGURES_PATH)) as {
  build?: { commit: string; clean: boolean }
  vitestExit: number
  fraction: number
  crashPoints: Record<string, Record<string, Row>>
  randomKills: Record<string, Row>
  killMidSave: Record<string, { trials: number; lost: number; corrupt: number }>
  fuzz: { inputs: number; failures: number }
  ownership?: {
    pairs: Record<string, number[]>
    stopped: Record<string, number>
    takeoverKilled: Record<string, number>
  }
}

/** A checkout with its history (a tarball has none: there the build cannot be checked). */
const inGit =
  spawnSync('git', ['-C', fileURLToPath(root), 'rev-parse', 'HEAD'], { encoding: 'utf8' })
    .status === 0

describe('the long run figures know their build', () => {
  it('record the commit they measured, on a tree with no change of its own', () => {
    expect(figures.build?.commit, 'rerun npm run test:long: these figures name no commit').toMatch(
      /^[0-9a-f]{40}$/,
    )
    expect(figures.build?.clean, 'the long run ran on uncommitted changes: rerun it').toBe(true)
  })

  // Strict only when asked (TICKDESK_STRICT_FIGURES=1, before a release): the figures come from a
  // 15-40 minute run that cannot follow every commit, and npm test must not fail on a doc's age.
  // docs/alerts-guarantees.md names the commit the figures were made on.
  const strict = process.env.TICKDESK_STRICT_FIGURES === '1'
  it.runIf(inGit && strict)(
    'are refused once the code they tested changed since that commit',
    () => {
      const changed = changedSince(fileURLToPath(root), figures.build?.commit ?? 'HEAD')
      expect(
        changed,
        `changed since the long run (${CODE_UNDER_TEST.join(' ')}): rerun npm run test:long`,
      ).toEqual([])
    },
  )
})

describe('the long run figures in the docs', () => {
  it('docs/alerts-guarantees.md shows what docs/figures/alerts-long.json says', () => {
    expect(figuresIn(read(DOC_PATH)), 'rerun npm run test:long, or fix the doc').toBe(
      render(figures),
    )
  })

  it("README's test:long line states no count of its own: it points at the JSON", () => {
    const line = read('README.md')
      .split('\n')
      .find((l) => l.includes('`npm run test:long`'))
    expect(line).toContain(FIGURES_PATH)
    expect(line?.replace(FIGURES_PATH, '')).not.toMatch(/\d/)
  })

  it('came from a passing run that walked every crash point of every target as the table says', () => {
    expect(figures.vitestExit).toBe(0)
    expect(figures.fraction).toBeGreaterThan(0)
    expect(Object.keys(figures.crashPoints).sort()).toEqual(
      // 'stdout, trend line': the drawing alert's walk (alerts-crash-points-drawings.spec.ts).
      ['browser page', 'desktop', 'stdout', 'stdout, trend line', 'webhook'].sort(),
    )
    for (const [target, points] of Object.entries(figures.crashPoints)) {
      expect(Object.keys(points).sort(), target).toEqual([...CRASH_POINTS].sort())
      for (const point of CRASH_POINTS) {
        const row = points[point]!
        expect(row.trials, `${target} ${point}`).toBeGreaterThanOrEqual(1)
        expect([row.lost, row.repeated], `${target} ${point}`).toEqual([0, 0])
        expect(row.replayed, `${target} ${point}`).toBe(OUTCOME[point].replayed ? row.trials : 0)
      }
    }
    for (const [name, row] of Object.entries(figures.randomKills))
      expect([row.lost, row.repeated], name).toEqual([0, 0])
    expect(Object.keys(figures.killMidSave).sort()).toEqual(['files', 'journal'])
    for (const row of Object.values(figures.killMidSave))
      expect([row.lost, row.corrupt]).toEqual([0, 0])
    expect(figures.fuzz.failures).toBe(0)
    expect(figures.fuzz.inputs).toBeGreaterThan(0)
    const own = figures.ownership
    expect(Object.keys(own?.pairs ?? {}), 'every ordered pair walked').toHaveLength(12)
    for (const ms of Object.values(own?.pairs ?? {}).flat()) expect(ms).toBeLessThan(5_000)
    expect(Object.keys(own?.stopped ?? {}).length).toBeGreaterThanOrEqual(3)
    for (const ms of Object.values(own?.stopped ?? {})) expect(ms).toBeLessThan(20_000)
    expect(Object.keys(own?.takeoverKilled ?? {}).sort()).toEqual([...TAKEOVER_POINTS].sort())
  })
})

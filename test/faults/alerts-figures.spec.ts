import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DOC_PATH, FIGURES_PATH, figuresIn, render } from '../../scripts/long-figures.mjs'
import { CRASH_POINTS } from '../../src/app/alerts/crash-points'
import { OUTCOME } from './crash-outcomes'

/**
 * The long run's figures are read from code, not written by hand (issue 37, Deliver 7):
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
  vitestExit: number
  fraction: number
  crashPoints: Record<string, Record<string, Row>>
  randomKills: Record<string, Row>
  killMidSave: Record<string, { trials: number; lost: number; corrupt: number }>
  fuzz: { inputs: number; failures: number }
}

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
      ['browser page', 'desktop', 'stdout', 'webhook'].sort(),
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
  })
})

import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { check, FUZZ_SCALE, printTally } from './counted'

afterEach(() => vi.restoreAllMocks())

/** The `long-figure` records printTally wrote while `fn` ran. */
function figuresOf(fn: () => void): Array<{ file: string; inputs: number }> {
  const lines: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
  fn()
  return lines
    .filter((l) => l.startsWith('long-figure '))
    .map((l) => JSON.parse(l.slice('long-figure '.length)) as { file: string; inputs: number })
}

describe('the fuzz tally', () => {
  it("counts each file's own inputs, though one worker runs many files on this module", () => {
    const figures = figuresOf(() => {
      check(
        'first',
        fc.property(fc.integer(), () => true),
        10,
      )
      printTally('first file')
      check(
        'second',
        fc.property(fc.integer(), () => true),
        4,
      )
      printTally('second file')
    })
    expect(figures.map((f) => [f.file, f.inputs])).toEqual([
      ['first file', Math.round(10 * FUZZ_SCALE)],
      ['second file', Math.round(4 * FUZZ_SCALE)],
    ])
  })
})

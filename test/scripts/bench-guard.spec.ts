import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIGURES, MIN_SHOWN, figuresOf, readFigures, type Figure } from '../../bench/guard/figures'
import { parseGuardArgs } from '../../bench/guard/guard-args'
import {
  appendRecord,
  commitRuns,
  readHistory,
  thisMachine,
  type RunRecord,
} from '../../bench/guard/history'
import { judge } from '../../bench/guard/judge'
import { waitForQuiet } from '../../bench/guard/quiet'

const figure = (id: string): Figure => FIGURES.find((f) => f.id === id) as Figure
const p95 = figure('render.hotP95Ratio')
const longTasks = figure('render.hotLongTasks')
const ingest = figure('ingest.pctOfRaw')

describe('the regression guard: judging a figure against its recorded runs', () => {
  const history = [
    { commit: 'a', values: [1.04, 1.1] },
    { commit: 'b', values: [1.02, 1.08] },
    { commit: 'c', values: [1.06, 1.12] },
  ]

  it('passes a run within the run-to-run spread of the recorded commits', () => {
    const v = judge(p95, 1.13, history)
    expect(v).toMatchObject({ kind: 'ok', spread: expect.closeTo(0.06, 6) })
  })

  it('fails a run worse than the baseline by more than that spread', () => {
    // Baseline: the median of the commits' medians (1.07, 1.05, 1.09) = 1.07; limit 1.13.
    const v = judge(p95, 1.2, history)
    expect(v).toMatchObject({ kind: 'slip', baseline: expect.closeTo(1.07, 6) })
    expect(v.kind === 'slip' && v.limit).toBeCloseTo(1.13, 6)
  })

  it('never allows less than the figure resolution, and judges higher-is-better figures downward', () => {
    const flat = [
      { commit: 'a', values: [80, 80] },
      { commit: 'b', values: [80, 80] },
    ]
    expect(judge(ingest, 78.5, flat).kind).toBe('ok')
    expect(judge(ingest, 77.5, flat).kind).toBe('slip')
    expect(judge(ingest, 95, flat).kind).toBe('ok')
  })

  it('holds a count that was always 0 within one: two long tasks are a slip', () => {
    // Unchanged code showed one long task in one run of four on a quiet machine (history.jsonl).
    const zero = [
      { commit: 'a', values: [0, 0] },
      { commit: 'b', values: [0, 0] },
    ]
    expect(judge(longTasks, 0, zero).kind).toBe('ok')
    expect(judge(longTasks, 1, zero).kind).toBe('ok')
    expect(judge(longTasks, 2, zero).kind).toBe('slip')
  })

  it('reports without judging until some commit was measured twice, and says when a figure is missing', () => {
    expect(judge(p95, 3, [{ commit: 'a', values: [1] }]).kind).toBe('unjudged')
    expect(judge(p95, undefined, history).kind).toBe('missing')
  })
})

describe('the regression guard: its history', () => {
  const machine = thisMachine()
  const record = (commit: string, value: number, extra: Partial<RunRecord> = {}): RunRecord => ({
    commit,
    dirty: false,
    subject: 's',
    machine,
    at: '2026-11-28T00:00:00Z',
    clock: 'real',
    form: 'full',
    load: { before: 0.5, after: 0.7 },
    figures: { [p95.id]: value },
    ...extra,
  })

  it('groups one machine and form runs by commit, leaving out dirty trees, the commit judged and what came before an accepted slip', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-history-'))
    try {
      const file = join(dir, 'history.jsonl')
      const other = { ...machine, id: 'elsewhere' }
      for (const r of [
        record('a', 1.0),
        record('b', 1.1),
        record('b', 1.2, { accepted: 'the grid shows more' }),
        record('b', 1.3),
        record('c', 1.4, { machine: other }),
        record('c', 1.5, { form: 'short' }),
        record('d', 1.6, { dirty: true }),
        record('e', 1.7),
        record('f', 1.8),
      ])
        appendRecord(file, r)
      const runs = commitRuns(readHistory(file), p95.id, machine.id, 'full', 'f')
      expect(runs).toEqual([
        { commit: 'b', values: [1.2, 1.3] },
        { commit: 'e', values: [1.7] },
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('reads figures as ratios to the same-run reference from a bench summary', () => {
    const summary = {
      render: { hot: { p95: 22, cpu: 60, longTasks: 0 }, referenceHot: { p95: 20, cpu: 80 } },
      ingest: { pctOfRaw: 77.1 },
    }
    const { figures } = figuresOf(false)
    expect(readFigures(summary, figures)).toMatchObject({
      'render.hotP95Ratio': 1.1,
      'render.hotCpuRatio': 0.75,
      'render.hotLongTasks': 0,
      'ingest.pctOfRaw': 77.1,
    })
    expect(figuresOf(true).benches).toEqual(['render', 'coldStart'])
  })

  it('leaves out a render phase where the desk wrote far fewer prices than the lean page (it polled)', () => {
    const phase = (cpu: number, writesPerSec: number) => ({
      cpu,
      p95: 20,
      hostCpu: 1,
      writesPerSec,
    })
    const read = (ours: number) =>
      readFigures(
        {
          render: {
            idle: phase(1.5, ours),
            referenceIdle: phase(1.7, 23),
            hot: phase(60, 948),
            referenceHot: phase(70, 820),
          },
        },
        figuresOf(false).figures,
      )
    // A desk that polled: 5 prices a second where the lean page wrote 23 would read 0.88x.
    expect(read(5)['render.idleCpuRatio']).toBeUndefined()
    expect(read(5)['render.hotCpuRatio']).toBeCloseTo(60 / 70, 3)
    expect(read(23 * MIN_SHOWN)['render.idleCpuRatio']).toBeCloseTo(1.5 / 1.7, 3)
    expect(read(28)['render.idleCpuRatio']).toBeCloseTo(1.5 / 1.7, 3)
  })
})

describe('the regression guard: waiting for a quiet machine and its options', () => {
  it('polls the load until it is under the bound, and goes ahead past the longest wait', async () => {
    let t = 0
    const loads = [3.2, 1.4, 0.6]
    const lines: string[] = []
    const opts = {
      maxLoad: 1,
      pollMs: 30_000,
      maxWaitMs: 3_600_000,
      log: (l: string) => lines.push(l),
      load: () => loads.shift() ?? 0,
      sleep: async (ms: number) => {
        t += ms
      },
      now: () => t,
    }
    expect(await waitForQuiet(opts)).toEqual({ load: 0.6, waitedMs: 60_000, quiet: true })
    expect(lines).toHaveLength(2)
    const busy = await waitForQuiet({ ...opts, load: () => 9, maxWaitMs: 90_000 })
    expect(busy).toMatchObject({ load: 9, quiet: false })
  })

  it('with no wait (--no-wait), tells a busy machine apart at once and never sleeps', async () => {
    const slept: number[] = []
    const opts = {
      maxLoad: 1,
      pollMs: 30_000,
      maxWaitMs: 0,
      log: () => {},
      sleep: async (ms: number) => {
        slept.push(ms)
      },
      now: () => 0,
    }
    expect(await waitForQuiet({ ...opts, load: () => 20 })).toMatchObject({ quiet: false })
    expect(await waitForQuiet({ ...opts, load: () => 0.4 })).toMatchObject({ quiet: true })
    expect(slept).toEqual([])
  })

  it('parses its command line and refuses what it does not know', () => {
    expect(parseGuardArgs(['--short', '--runs', '1', '--clock', 'weekend'])).toMatchObject({
      short: true,
      runs: 1,
      clock: 'weekend',
      wait: true,
    })
    expect(parseGuardArgs(['--short', '--warn-only'])).toMatchObject({ warnOnly: true })
    expect(parseGuardArgs([])).toMatchObject({ warnOnly: false })
    expect(parseGuardArgs(['--runs', '0'])).toBeTypeOf('string')
    expect(parseGuardArgs(['--accept'])).toBeTypeOf('string')
    expect(parseGuardArgs(['--fast'])).toBeTypeOf('string')
  })
})

describe('the regression guard: a CPU meter for a machine of its own', () => {
  it('reads how many cores were busy over a short window from /proc/stat', async () => {
    const { busyCores } = await import('../../bench/guard/quiet')
    const { cpus } = await import('node:os')
    const cores = await busyCores(300)
    expect(cores).toBeGreaterThanOrEqual(0)
    expect(cores).toBeLessThanOrEqual(cpus().length + 0.01)
  })
})

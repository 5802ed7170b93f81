import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { barsSaveBench } from './bars-save'
import { biglistBench } from './biglist/biglist'
import { bridgeBench } from './bridge'
import { chartBench } from './chart/chart'
import { coldStartBench } from './cold-start/cold-start'
import { freshnessBench } from './freshness/freshness'
import { ingestBench } from './ingest/ingest'
import { memoryBench } from './memory'
import { parseBench } from './parse'
import { renderBench } from './render'
import { wallBench } from './wall'
import { heatmapBench } from './heatmap'
import { scaleBench } from './scale'
import type { Benchmark, BenchResult } from './stats'

/**
 * `npm run bench [-- --json] [--only a,b] [--strict] [--full] [--trace] [--short]`
 *
 * Runs each benchmark, prints one table (PASS/FAIL against each benchmark's targets), and saves
 * bench/results/latest.json plus a timestamped copy. --json makes the last line one JSON object;
 * --strict exits 1 when any target fails; --full uses the long windows (3-minute freshness,
 * bigger samples); --short is the regression guard's CI form (bench/guard). Machines are shared and noisy: the headline figures are ratios against a
 * baseline measured in the same run.
 */
const BENCHMARKS: Record<string, Benchmark> = {
  ingest: ingestBench,
  bridge: bridgeBench,
  parse: parseBench,
  memory: memoryBench,
  render: renderBench,
  wall: wallBench,
  heatmap: heatmapBench,
  chart: chartBench,
  coldStart: coldStartBench,
  freshness: freshnessBench,
  scale: scaleBench,
  biglist: biglistBench,
  barsSave: barsSaveBench,
}

interface Args {
  json: boolean
  strict: boolean
  full: boolean
  trace: boolean
  short: boolean
  only: string[] | null
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = {
    json: false,
    strict: false,
    full: false,
    trace: false,
    short: false,
    only: null,
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--json') args.json = true
    else if (a === '--strict') args.strict = true
    else if (a === '--full') args.full = true
    else if (a === '--trace') args.trace = true
    else if (a === '--short') args.short = true
    else if (a === '--only') {
      const names = (argv[++i] ?? '').split(',').filter(Boolean)
      const unknown = names.filter((n) => !(n in BENCHMARKS))
      if (names.length === 0 || unknown.length > 0)
        return `--only takes names from: ${Object.keys(BENCHMARKS).join(', ')}`
      args.only = names
    } else
      return `unknown option ${a}; usage: npm run bench -- [--json] [--only a,b] [--strict] [--full] [--trace] [--short]`
  }
  return args
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v)
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : String(v)
}

function table(results: BenchResult[]): string {
  const lines: string[][] = [['benchmark', 'metric', 'value', 'target', 'result']]
  for (const r of results) {
    if (r.skipped) lines.push([r.name, `SKIPPED: ${r.skipped}`, '', '', 'SKIP'])
    for (const row of r.rows) {
      lines.push([
        r.name,
        row.note ? `${row.metric} (${row.note})` : row.metric,
        `${fmt(row.value)} ${row.unit}`,
        row.target ?? 'report',
        row.pass === null ? '' : row.pass ? 'PASS' : 'FAIL',
      ])
    }
  }
  const widths = lines[0]?.map((_, c) => Math.max(...lines.map((l) => (l[c] ?? '').length))) ?? []
  return lines
    .map((l) =>
      l
        .map((cell, c) => cell.padEnd(widths[c] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2))
  if (typeof args === 'string') {
    console.error(args)
    return 2
  }
  const names = args.only ?? Object.keys(BENCHMARKS)
  const log = (line: string): void => console.error(`  ${line}`)
  const results: BenchResult[] = []
  const startedAt = new Date()
  for (const name of names) {
    const bench = BENCHMARKS[name]
    if (bench === undefined) continue
    console.error(`[bench] ${name} …`)
    const t0 = performance.now()
    try {
      results.push(await bench({ full: args.full, trace: args.trace, short: args.short, log }))
    } catch (e) {
      results.push({
        name,
        rows: [
          {
            metric: `crashed: ${e instanceof Error ? e.message : String(e)}`,
            value: Number.NaN,
            unit: '',
            target: 'runs',
            pass: false,
          },
        ],
        json: {},
      })
    }
    console.error(`[bench] ${name} done in ${Math.round((performance.now() - t0) / 1000)} s`)
  }
  const failed = results.flatMap((r) =>
    r.rows.filter((row) => row.pass === false).map((row) => `${r.name}: ${row.metric}`),
  )
  const summary: Record<string, unknown> = {}
  for (const r of results) summary[r.name] = r.skipped ? { skipped: r.skipped } : r.json
  const record = {
    startedAt: startedAt.toISOString(),
    mode: args.full ? 'full' : args.short ? 'short' : 'default',
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? '',
      loadavg: loadavg(),
      node: process.version,
    },
    results,
    failed,
  }
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'results')
  mkdirSync(dir, { recursive: true })
  const body = `${JSON.stringify(record, null, 2)}\n`
  // The guard's short runs are partial: latest.json keeps the last whole run.
  if (!args.short) writeFileSync(join(dir, 'latest.json'), body)
  writeFileSync(join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`), body)

  console.log(table(results))
  console.log(
    failed.length === 0
      ? '\nAll targets met.'
      : `\n${failed.length} target(s) missed:\n  ${failed.join('\n  ')}`,
  )
  if (args.json) console.log(JSON.stringify(summary))
  return args.strict && failed.length > 0 ? 1 : 0
}

process.exitCode = await main()

import { execFileSync, spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { figuresOf, readFigures, type Summary } from './figures'
import { appendRecord, commitRuns, readHistory, thisMachine, type RunRecord } from './history'
import { judge, median } from './judge'
import { busyCores, waitForQuiet } from './quiet'
import { clockPrefix, CLOCKS, parseGuardArgs, USAGE, type GuardArgs } from './guard-args'
import { verdictTable } from './report'

/**
 * `npm run guard [-- --short] [--runs N] [--record] [--accept "why"] [--clock weekday|weekend]
 *  [--no-build] [--no-wait] [--max-load L]`
 *
 * The performance regression guard: builds, waits for a quiet machine, runs the benchmarks that
 * measure the headline figures (figures.ts) N times, and judges their median against the runs
 * recorded on this machine (history.jsonl, judge.ts). Exit 1 when a figure slipped by more than
 * its own run-to-run spread. `--record` appends the runs to the history (commit them with the
 * change they measure); `--accept` records a slip kept on purpose, from which judging restarts.
 * `--short` is CI's form: the render bench's hot phase (8 s a side) and the cold start.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const HISTORY = join(root, 'bench', 'guard', 'history.jsonl')
const log = (line: string): void => console.error(`[guard] ${line}`)

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
}

/** The bench, as its own process (under faketime for a chosen clock); its --json summary. */
function runBench(benches: string[], args: GuardArgs): Promise<Summary> {
  const bench = ['tsx', 'bench/run.ts', '--only', benches.join(','), '--json']
  if (args.short) bench.push('--short')
  const [cmd, ...rest] = [...clockPrefix(args.clock), 'npx', ...bench]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd as string, rest, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      process.stderr.write(d)
    })
    child.once('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? ''
      try {
        resolve(JSON.parse(last) as Summary)
      } catch {
        reject(new Error(`the bench ended (exit ${code}) without its JSON summary`))
      }
    })
  })
}

/**
 * Whether the code measured differs from the commit. bench/results is what the benches write, not
 * what they measure: a run of the guard (or any bench) before this one leaves latest.json changed,
 * and that is no uncommitted change to the app.
 */
function treeIsDirty(): boolean {
  const paths = ['src', 'bench', ':!bench/results', ':!bench/guard/history.jsonl']
  return git('status', '--porcelain', '--untracked-files=no', '--', ...paths) !== ''
}

/** The verdicts' exit code: a slip fails, unless accepted or only reported (--warn-only). */
function exitCodeOf(slipped: readonly { figure: { id: string } }[], args: GuardArgs): number {
  if (slipped.length === 0 || args.accept !== null) {
    console.log('\nNo figure slipped past its own run-to-run spread.')
    return 0
  }
  console.log(
    `\n${slipped.length} figure(s) slipped: ${slipped.map((v) => v.figure.id).join(', ')}`,
  )
  if (!args.warnOnly) return 1
  console.log('(--warn-only: reported, not failed)')
  return 0
}

async function main(): Promise<number> {
  const args = parseGuardArgs(process.argv.slice(2))
  if (typeof args === 'string') {
    console.error(`${args}\n${USAGE}`)
    return 2
  }
  const { figures, benches } = figuresOf(args.short)
  const commit = git('rev-parse', '--short=12', 'HEAD')
  const dirty = treeIsDirty()
  const subject = git('log', '-1', '--format=%s').slice(0, 120)
  const machine = thisMachine()
  if (args.build) {
    log('npm run build')
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  }
  const form = args.short ? 'short' : 'full'
  const runs: RunRecord[] = []
  let busy: string | null = null
  const round2 = (v: number): number => Math.round(v * 100) / 100
  for (let i = 0; i < args.runs; i++) {
    // --no-wait goes ahead at once, but a run beside other work is still told apart.
    const quiet = await waitForQuiet({
      maxLoad: args.maxLoad,
      pollMs: Math.min(30_000, args.maxWaitS * 1000),
      maxWaitMs: args.wait ? args.maxWaitS * 1000 : 0,
      log,
      ...(args.quietCpu ? { load: () => busyCores() } : {}),
    })
    if (!quiet.quiet)
      busy = `the machine was busy (${args.quietCpu ? 'busy cores' : 'load'} ${quiet.load.toFixed(2)})`
    const before = loadavg()[0] ?? 0
    log(`run ${i + 1} of ${args.runs} (${form}, clock ${args.clock}), load ${before.toFixed(2)}`)
    const summary = await runBench(benches, args)
    runs.push({
      commit,
      dirty,
      subject,
      machine,
      at: new Date().toISOString(),
      clock: args.clock === 'real' ? 'real' : `${args.clock} ${CLOCKS[args.clock]}`,
      form,
      load: { before: round2(before), after: round2(loadavg()[0] ?? 0) },
      figures: readFigures(summary, figures),
    })
  }
  const records = readHistory(HISTORY)
  const verdicts = figures.map((f) => {
    const values = runs.flatMap((r) =>
      r.figures[f.id] === undefined ? [] : [r.figures[f.id] as number],
    )
    const value = values.length > 0 ? median(values) : undefined
    const verdict = judge(f, value, commitRuns(records, f.id, machine.id, form, commit))
    // A run beside other work measures the other work too: reported, never judged.
    if (busy !== null && value !== undefined)
      return { figure: f, verdict: { kind: 'unjudged' as const, value, why: busy } }
    return { figure: f, verdict }
  })
  console.log(verdictTable(verdicts, { machine, form, runs }))
  const slipped = verdicts.filter((v) => v.verdict.kind === 'slip')
  if ((args.record || args.accept !== null) && busy !== null)
    log(`not recorded: ${busy}; the history holds runs on a quiet machine only`)
  else if (args.record || args.accept !== null) {
    if (dirty) log('recording runs of a tree with uncommitted changes: kept, never judged against')
    for (const [i, r] of runs.entries())
      appendRecord(HISTORY, i === 0 && args.accept !== null ? { ...r, accepted: args.accept } : r)
    log(`${runs.length} run(s) appended to ${HISTORY}`)
  }
  return exitCodeOf(slipped, args)
}

process.exitCode = await main()

import { execFileSync, spawn } from 'node:child_process'
import { appendFileSync, existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { FIGURES, readFigures, type Summary } from './figures'
import { clockPrefix, CLOCKS } from './guard-args'
import { waitForQuiet } from './quiet'

/**
 * Measures the headline figures of any commit, for a bisect or a scan over history:
 *
 *   npx tsx bench/guard/measure-build.ts <commit> [--only a,b] [--short] [--log file.jsonl]
 *     [--max-load L] [--clock weekday|weekend] [--bad-if 'coldStart.paintedMs>700']
 *
 * The commit is checked out and built in a scratch worktree of its own (BISECT_DIR, default
 * ../<this checkout>-bisect, node_modules hard-linked from this checkout's), then measured after
 * the load average falls under L (default 1.0). The benchmarks that start the built host (render,
 * biglist) run from this checkout against that build (BENCH_APP_ROOT), so every commit meets the
 * same harness and reference; those that load the sources in-process (coldStart, ingest) run from
 * the commit's own bench. One JSON line per commit goes to --log. `--bad-if` makes the exit code
 * git bisect run's: 1 when the condition holds, 0 when not, 125 when the commit does not build.
 */
const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..', '..')
const IN_PROCESS = new Set(['coldStart', 'ingest'])

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}

function benchJson(cwd: string, only: string[], env: NodeJS.ProcessEnv): Promise<Summary> {
  if (only.length === 0) return Promise.resolve({})
  const args = ['tsx', 'bench/run.ts', '--only', only.join(','), '--json']
  if (process.argv.includes('--short')) args.push('--short')
  const clock = arg('--clock')
  const [cmd, ...rest] = [
    ...clockPrefix(clock === 'weekday' || clock === 'weekend' ? clock : 'real'),
    'npx',
    ...args,
  ]
  return new Promise((done, fail) => {
    const child = spawn(cmd as string, rest, { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.once('exit', () => {
      try {
        done(JSON.parse(out.trim().split('\n').at(-1) ?? '') as Summary)
      } catch {
        fail(new Error(`no JSON summary from the bench in ${cwd}:\n${out.slice(-2000)}`))
      }
    })
  })
}

function badIf(condition: string, figures: Record<string, number>): boolean {
  const m = /^([\w.]+)\s*([<>])\s*([\d.]+)$/.exec(condition)
  if (m === null) throw new Error(`--bad-if takes figure>value or figure<value, not ${condition}`)
  const v = figures[m[1] as string]
  if (v === undefined) throw new Error(`${m[1]} was not measured`)
  return m[2] === '>' ? v > Number(m[3]) : v < Number(m[3])
}

async function main(): Promise<number> {
  const commit = process.argv[2]
  if (commit === undefined || commit.startsWith('--')) {
    console.error('usage: measure-build.ts <commit> [--only a,b] [--short] [--log f] [--bad-if c]')
    return 2
  }
  const only = (arg('--only') ?? 'render,coldStart,ingest,biglist').split(',')
  const dir = process.env.BISECT_DIR ?? `${root}-bisect`
  const git = (...a: string[]): string =>
    execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim()
  if (!existsSync(dir)) git('worktree', 'add', '--detach', dir, commit)
  execFileSync('git', ['checkout', '--quiet', '--detach', commit], { cwd: dir })
  if (!existsSync(join(dir, 'node_modules')))
    execFileSync('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')])
  try {
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'ignore' })
  } catch {
    console.error(`${commit} does not build`)
    return 125
  }
  const maxLoad = Number(arg('--max-load') ?? 1)
  const log = (line: string): void => console.error(`[measure] ${line}`)
  const quiet = await waitForQuiet({ maxLoad, pollMs: 30_000, maxWaitMs: 6 * 3600_000, log })
  const own = await benchJson(
    dir,
    only.filter((b) => IN_PROCESS.has(b)),
    process.env,
  )
  const harness = await benchJson(
    root,
    only.filter((b) => !IN_PROCESS.has(b)),
    { ...process.env, BENCH_APP_ROOT: dir },
  )
  const summary = { ...own, ...harness }
  const record = {
    commit: execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: dir,
      encoding: 'utf8',
    }).trim(),
    subject: execFileSync('git', ['log', '-1', '--format=%s'], {
      cwd: dir,
      encoding: 'utf8',
    }).slice(0, 100),
    at: new Date().toISOString(),
    clock:
      arg('--clock') === undefined
        ? 'real'
        : `${arg('--clock')} ${CLOCKS[arg('--clock') as keyof typeof CLOCKS]}`,
    load: { before: quiet.load, after: loadavg()[0] ?? 0 },
    figures: readFigures(summary, FIGURES),
    summary,
  }
  const out = arg('--log')
  if (out !== undefined) appendFileSync(out, `${JSON.stringify(record)}\n`)
  console.log(JSON.stringify({ commit: record.commit, load: record.load, figures: record.figures }))
  const condition = arg('--bad-if')
  return condition === undefined ? 0 : badIf(condition, record.figures) ? 1 : 0
}

process.exitCode = await main()

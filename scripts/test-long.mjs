#!/usr/bin/env node
// `npm run test:long [-- --fraction f] [-- <files>]`: the crash and fuzz tests at scale, not in
// CI. TICKDESK_LONG=1 makes test/faults/kill-mid-save.spec.ts run 1000 kill -9 trials of the
// data files and 300 of the fire journal, the random-kill alert tests 300 (watch and alerts run)
// and 200 (the browser host) trials, the crash-point walks every point of every target, the
// ownership walks (every pair of processes, the owner stopped, take-overs killed, folders that
// cannot hold a lease: once each, their delivery times recorded), and test/fuzz every property x25 (a fresh seed each run, printed with any failure).
// `--fraction f` runs that share of every count (never fewer than CI's): a smaller but real run
// for a busy machine, recorded in the figures. Runs at low priority, one file at a time. A whole
// run (no files named) that passes writes docs/figures/alerts-long.json from what the tests
// counted (their `long-figure` lines), with the commit it measured and whether the tree was clean,
// and the figures block of docs/alerts-guarantees.md from it.
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { setPriority } from 'node:os'
import { stripVTControlCharacters } from 'node:util'
import {
  buildOf,
  DOC_PATH,
  FIGURES_PATH,
  FULL_SCALE,
  gather,
  render,
  withFigures,
} from './long-figures.mjs'
import { LONG_RUN_TARGETS } from '../test/long-walks.mjs'

const root = new URL('..', import.meta.url).pathname
const bin = new URL('../node_modules/.bin/vitest', import.meta.url).pathname
const args = process.argv.slice(2)
let fraction = 1
const files = []
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--fraction') fraction = Number(args[++i])
  else files.push(args[i])
}
if (!(fraction > 0 && fraction <= 1)) {
  console.error('test:long: --fraction takes a number in (0, 1]')
  process.exit(2)
}
const whole = files.length === 0
// The code measured is the code as it is now, before anything runs: its commit and whether it
// had changes of its own (then the figures say so, and the figures spec refuses them).
const build = buildOf(root)
if (!build.clean)
  console.error(
    `test:long: the code under test differs from ${build.commit}: the figures will say so`,
  )
const targets = whole ? LONG_RUN_TARGETS : files
const started = Date.now()
const child = spawn(
  bin,
  ['run', '--project', 'node', '--no-file-parallelism', '--reporter', 'verbose', ...targets],
  {
    env: { ...process.env, TICKDESK_LONG: '1', TICKDESK_LONG_FRACTION: String(fraction) },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
)
try {
  setPriority(child.pid, 10)
} catch {
  // Not allowed here: it runs at normal priority.
}

const summary = []
const records = []
// vitest prints a failed file's console output on stderr: both streams are read for counts.
const reader = (out) => {
  let text = ''
  return (chunk) => {
    out.write(chunk)
    text += chunk.toString()
    const lines = text.split('\n')
    text = lines.pop() ?? ''
    for (const raw of lines) {
      const line = stripVTControlCharacters(raw)
      const figure = /^long-figure (\{.*\})$/.exec(line)
      if (figure) records.push(JSON.parse(figure[1]))
      if (/^fuzz (.+): (\d+) inputs, failures: (.+)$/.test(line) && !summary.includes(line))
        summary.push(line)
      if (/kill -9 x\d+/.test(line) || /crash trials: \d+/.test(line)) summary.push(line)
    }
  }
}
child.stdout.on('data', reader(process.stdout))
child.stderr.on('data', reader(process.stderr))
child.on('exit', (code) => {
  const minutes = Number(((Date.now() - started) / 60_000).toFixed(1))
  console.log(`\n=== long mode (fraction ${fraction}), ${minutes} min, vitest exit ${code} ===`)
  for (const line of summary) console.log(line)
  const figures = {
    about: `Written by scripts/test-long.mjs from the tests' own counts; do not edit by hand.`,
    command: `npm run test:long${fraction === 1 ? '' : ` -- --fraction ${fraction}`}`,
    ranAt: new Date().toISOString(),
    minutes,
    vitestExit: code,
    fraction,
    build,
    fullScale: FULL_SCALE,
    ...gather(records),
  }
  console.log(`fuzzed inputs in all (counted): ${figures.fuzz.inputs.toLocaleString('en')}`)
  if (whole && code === 0) {
    const path = `${root}${FIGURES_PATH}`
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify(figures, null, 2)}\n`)
    const doc = `${root}${DOC_PATH}`
    writeFileSync(doc, withFigures(readFileSync(doc, 'utf8'), render(figures)))
    // In the repository's own style, so `npm run lint` (prettier --check) stays green.
    spawnSync(new URL('../node_modules/.bin/prettier', import.meta.url).pathname, [
      '--write',
      path,
      doc,
    ])
    console.log(`wrote ${FIGURES_PATH} and the figures in ${DOC_PATH}`)
  } else {
    console.log(`${FIGURES_PATH} left as it was (${whole ? 'the run failed' : 'files named'})`)
  }
  process.exit(code ?? 1)
})

#!/usr/bin/env node
// `npm run test:repeat -- --times 5 [files or filters…]`: runs the chosen tests N times (default:
// the whole e2e suite) and reports flips: tests that passed in some runs and failed in others.
// A flip is a CI that cannot be trusted; this is how one is found before it reaches CI. Exits 1
// when any test flipped or failed every time. Builds once first, as `npm test` does.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildUnlessSkipped, localBin } from './build-first.mjs'

const USAGE = 'usage: npm run test:repeat -- [--times N] [--project node|renderer|e2e] [files…]'
let args
try {
  args = parseArgs({
    allowPositionals: true,
    options: { times: { type: 'string', default: '5' }, project: { type: 'string' } },
  })
} catch (e) {
  console.error(`${e.message}\n${USAGE}`)
  process.exit(2)
}
const times = Number(args.values.times)
if (!Number.isInteger(times) || times < 1 || times > 1000) {
  console.error(`--times takes a whole number from 1 to 1000\n${USAGE}`)
  process.exit(2)
}
const files = args.positionals
const project = args.values.project ?? (files.length === 0 ? 'e2e' : undefined)

buildUnlessSkipped()

const dir = mkdtempSync(join(tmpdir(), 'tickdesk-repeat-'))
/** test name -> outcomes, one per run */
const outcomes = new Map()
for (let run = 1; run <= times; run++) {
  const out = join(dir, `run-${run}.json`)
  const started = Date.now()
  const res = spawnSync(
    localBin('vitest'),
    [
      'run',
      ...(project ? ['--project', project] : []),
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...files,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  let report
  try {
    report = JSON.parse(readFileSync(out, 'utf8'))
  } catch {
    console.error(`run ${run}: vitest wrote no report (exit ${res.status})`)
    process.exit(1)
  }
  let failed = 0
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'skipped' || t.status === 'pending') continue
      const name = `${file.name.replace(process.cwd() + '/', '')} > ${t.fullName}`
      if (!outcomes.has(name)) outcomes.set(name, [])
      outcomes.get(name).push(t.status === 'passed')
      if (t.status !== 'passed') failed++
    }
  }
  console.log(
    `run ${run}/${times}: ${report.numPassedTests} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s)`,
  )
}

const flips = [...outcomes].filter(([, r]) => r.includes(true) && r.includes(false))
const broken = [...outcomes].filter(([, r]) => !r.includes(true))
console.log(
  `\n${outcomes.size} tests x ${times} runs: ${flips.length} flipped, ${broken.length} failed every run`,
)
for (const [name, r] of flips)
  console.log(`  FLIP  ${name}: ${r.map((ok) => (ok ? '✓' : '×')).join('')}`)
for (const [name] of broken) console.log(`  FAIL  ${name}`)
process.exit(flips.length + broken.length > 0 ? 1 : 0)

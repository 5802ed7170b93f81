#!/usr/bin/env node
// `npm run test:calendar -- [--clocks saturday,holiday,…] [--zones America/New_York,…] [-- vitest
// args…]`: the node and renderer tests (default: every project but e2e) under each chosen clock in
// each chosen zone, one run each, and a table of what passed. A spec that reads the real calendar
// instead of the injected Clock passes on a weekday in UTC and fails on a Saturday, a holiday or
// across a change of summer time; this shows it before a weekend CI does. Needs faketime (apt).
// The clock runs from the chosen instant (faketime's "@"), so waits and timers still move.
// Exits 1 when any run failed. Builds once first, as `npm test` does.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildUnlessSkipped, localBin } from './build-first.mjs'

/** The days a weekday run hides, each an instant in UTC. */
const CLOCKS = {
  saturday: '2026-11-28 12:00:00', // most markets shut, crypto open
  holiday: '2026-12-25 15:00:00', // Christmas: US, German and Hong Kong exchanges shut on a Friday
  'monday-0030z': '2026-11-30 00:30:00', // Monday in Asia, still Sunday evening in New York
  'dst-change': '2026-03-08 06:30:00', // US clocks go forward 30 minutes later (02:00 New York)
}
const ZONES = ['America/New_York', 'Asia/Shanghai']

const USAGE =
  'usage: npm run test:calendar -- [--clocks ' +
  Object.keys(CLOCKS).join(',') +
  '] [--zones Zone/One,Zone/Two] [-- vitest args…]'
// Our options before a "--", vitest's after it.
const argv = process.argv.slice(2)
const cut = argv.indexOf('--')
const own = cut < 0 ? argv : argv.slice(0, cut)
const forVitest = cut < 0 ? [] : argv.slice(cut + 1)
let args
try {
  args = parseArgs({
    args: own,
    strict: true,
    options: {
      clocks: { type: 'string', default: Object.keys(CLOCKS).join(',') },
      zones: { type: 'string', default: ZONES.join(',') },
    },
  })
} catch (e) {
  console.error(`${e.message}\n${USAGE}`)
  process.exit(2)
}
const clocks = args.values.clocks.split(',').filter(Boolean)
const unknown = clocks.filter((c) => !(c in CLOCKS))
if (unknown.length > 0 || clocks.length === 0) {
  console.error(`unknown clock ${unknown.join(', ') || '(none given)'}\n${USAGE}`)
  process.exit(2)
}
const zones = args.values.zones.split(',').filter(Boolean)
for (const zone of zones) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
  } catch {
    console.error(`unknown time zone ${zone}\n${USAGE}`)
    process.exit(2)
  }
}
if (spawnSync('faketime', ['-f', '+0d', 'true']).status !== 0) {
  console.error('faketime is not installed (apt-get install faketime)')
  process.exit(2)
}
const vitestArgs = forVitest.length > 0 ? forVitest : ['--project', '!e2e']

/**
 * faketime reads its "@" instant as wall time in the process's zone: the zone's wall time at the
 * chosen UTC instant.
 */
function wallTime(utc, zone) {
  const at = new Date(`${utc.replace(' ', 'T')}Z`)
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at)
}

buildUnlessSkipped()

const dir = mkdtempSync(join(tmpdir(), 'tickdesk-calendar-'))
const rows = []
for (const clock of clocks) {
  for (const zone of zones) {
    const out = join(dir, `${clock}-${zone.replace('/', '-')}.json`)
    const started = process.hrtime.bigint()
    const res = spawnSync(
      'faketime',
      [
        '-f',
        `@${wallTime(CLOCKS[clock], zone)}`,
        localBin('vitest'),
        'run',
        ...vitestArgs,
        '--reporter=dot',
        '--reporter=json',
        `--outputFile.json=${out}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, TZ: zone } },
    )
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    let report = null
    try {
      report = JSON.parse(readFileSync(out, 'utf8'))
    } catch {
      // no report: counted as a failed run below, with vitest's exit code
    }
    const failed = report
      ? report.testResults.flatMap((f) =>
          f.assertionResults
            .filter((t) => t.status === 'failed')
            .map((t) => `${f.name.replace(process.cwd() + '/', '')} > ${t.fullName}`),
        )
      : [`vitest wrote no report (exit ${res.status})`]
    rows.push({ clock, zone, report, failed, seconds })
    console.log(
      `${clock} (${CLOCKS[clock]}Z) in ${zone}: ` +
        (report
          ? `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`
          : 'no report') +
        ` (${seconds.toFixed(0)} s)`,
    )
    for (const name of failed) console.log(`  failed: ${name}`)
  }
}
const bad = rows.filter((r) => r.failed.length > 0 || r.report?.success === false)
console.log(
  bad.length === 0
    ? `\ntest:calendar: every run passed (${rows.length} runs)`
    : `\ntest:calendar: ${bad.length} of ${rows.length} runs failed`,
)
process.exit(bad.length === 0 ? 0 : 1)

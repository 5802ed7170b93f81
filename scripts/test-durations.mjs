#!/usr/bin/env node
/**
 * Writes test/durations.json, the seconds each slow spec file took, which the test order reads
 * (test/longest-first.ts): the files that take longest start first, so no long file starts last
 * and keeps one worker busy after the others are done.
 *
 *   TICKDESK_REPORTS=/tmp/reports npm test     (on a machine doing nothing else; CI's own setup)
 *   node scripts/test-durations.mjs /tmp/reports/rest.json /tmp/reports/e2e.json
 *
 * Run it from the checkout that ran the tests (paths are made relative to it): for CI's own
 * run, `TICKDESK_REPORTS=/tmp/reports ./.ci/run` in a clean clone, then this script of that clone.
 *
 * Every file is listed, so that only a file newer than the table falls back to what vitest
 * recorded on the machine at hand. A stale table only makes the order less good; it never
 * changes what runs.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const reports = process.argv.slice(2)
if (reports.length === 0) {
  console.error('usage: node scripts/test-durations.mjs <vitest json report>...')
  process.exit(2)
}
const rows = reports
  .flatMap((report) => JSON.parse(readFileSync(report, 'utf8')).testResults)
  .map((r) => {
    const file = relative(root, r.name)
    return [file, Math.round((r.endTime - r.startTime) / 100) / 10]
  })
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
writeFileSync(
  resolve(root, 'test/durations.json'),
  JSON.stringify(Object.fromEntries(rows), null, 2) + '\n',
)
console.log(`test/durations.json: ${rows.length} files`)

#!/usr/bin/env node
// `npm test`: builds the app once (the end-to-end tests load the built renderer and preload),
// then runs every vitest project: node, renderer components and end-to-end in Chromium.
//
// With no arguments, the end-to-end files run in a vitest of their own beside the others, from
// the start: the node files' first minute is mostly waiting (real processes, sockets, a stopped
// process), and the Chromium flows, which compute, fill it; one vitest can only run the e2e
// project after the others (its two files at a time is a different worker count, and vitest runs
// projects of different counts in separate groups, one group after another). The e2e output is
// held and printed whole once the other run's is done, so neither summary is cut by the other.
// With arguments (a file, a project, a flag) it is one vitest run, as before.
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildUnlessSkipped, localBin } from './build-first.mjs'

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1

buildUnlessSkipped()
const args = process.argv.slice(2)
if (args.length > 0) process.exit(run(localBin('vitest'), ['run', ...args]))

// Each run also writes a JSON report, read at the end: the names of the failed tests are printed
// last, where a log cut to its tail (CI's) still shows them. TICKDESK_REPORTS=dir keeps them there
// (rest.json, e2e.json): scripts/test-durations.mjs reads the time of each file from them.
const kept = process.env.TICKDESK_REPORTS
if (kept) mkdirSync(kept, { recursive: true })
const reports = kept || mkdtempSync(join(tmpdir(), 'tickdesk-test-'))
const reporters = (name) => [
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(reports, `${name}.json`)}`,
]
const failedNames = (name) => {
  try {
    const report = JSON.parse(readFileSync(join(reports, `${name}.json`), 'utf8'))
    return report.testResults.flatMap((file) =>
      file.assertionResults
        .filter((t) => t.status === 'failed')
        .map(
          (t) =>
            `  ${file.name.replace(process.cwd() + '/', '')} > ${t.fullName}\n    ${String(t.failureMessages?.[0] ?? '').split('\n')[0]}`,
        )
        .concat(
          file.status === 'failed' && file.assertionResults.length === 0
            ? [
                `  ${file.name.replace(process.cwd() + '/', '')}: ${file.message ?? 'failed to run'}`,
              ]
            : [],
        ),
    )
  } catch (e) {
    return [`  (no report from the ${name} run: ${e.message})`]
  }
}

const started = (argv, held) => {
  const child = spawn(localBin('vitest'), ['run', ...argv], {
    stdio: ['ignore', held ? 'pipe' : 'inherit', held ? 'pipe' : 'inherit'],
  })
  const out = []
  if (held) {
    child.stdout.on('data', (b) => out.push(b))
    child.stderr.on('data', (b) => out.push(b))
  }
  const exited = new Promise((resolve) => {
    child.on('error', (e) => resolve({ status: 1, error: e }))
    child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0) }))
  })
  return { exited, out }
}

const e2e = started(['--project', 'e2e', ...reporters('e2e')], true)
const rest = started(['--project', '!e2e', ...reporters('rest')], false)
const restDone = await rest.exited
console.log('\n== end-to-end (Chromium), run beside the above')
const e2eDone = await e2e.exited
process.stdout.write(Buffer.concat(e2e.out))
if (e2eDone.error) console.error(String(e2eDone.error))
const failed = [restDone.status !== 0 && 'node and renderer', e2eDone.status !== 0 && 'e2e'].filter(
  Boolean,
)
for (const [name, done] of [
  ['node and renderer', restDone],
  ['e2e', e2eDone],
]) {
  if (done.status === 0) continue
  console.log(`\nFailed in ${name}:`)
  console.log(failedNames(name === 'e2e' ? 'e2e' : 'rest').join('\n'))
}
if (!kept) rmSync(reports, { recursive: true, force: true })
console.log(
  failed.length === 0
    ? '\nnpm test: every project passed'
    : `\nnpm test: failed in ${failed.join(' and ')}`,
)
process.exit(failed.length === 0 ? 0 : 1)

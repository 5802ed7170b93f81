#!/usr/bin/env node
// `npm run test:long [-- <files>]`: the crash and fuzz tests at scale, not in CI. TICKDESK_LONG=1
// makes test/faults/kill-mid-save.spec.ts run 1000 kill -9 trials, the alert crash tests 300
// (watch and alerts run) and 200 (the browser host) kill -9 trials around fires, and test/fuzz
// ~1M inputs (a fresh seed each run, printed with any failure). Runs at low priority, one file at
// a time, and ends with the counts gathered from every file's output.
import { spawn } from 'node:child_process'
import { setPriority } from 'node:os'
import { stripVTControlCharacters } from 'node:util'

const bin = new URL('../node_modules/.bin/vitest', import.meta.url).pathname
const files = process.argv.slice(2)
const targets = files.length
  ? files
  : [
      'test/faults/kill-mid-save.spec.ts',
      'test/faults/alerts-exactly-once.spec.ts',
      'test/faults/alerts-browser-host.spec.ts',
      'test/fuzz',
    ]
const started = Date.now()
const child = spawn(
  bin,
  ['run', '--project', 'node', '--no-file-parallelism', '--reporter', 'verbose', ...targets],
  { env: { ...process.env, TICKDESK_LONG: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
)
try {
  setPriority(child.pid, 10)
} catch {
  // Not allowed here: it runs at normal priority.
}

const summary = []
let fuzzInputs = 0
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
      const fuzz = /^fuzz (.+): (\d+) inputs, failures: (.+)$/.exec(line)
      if (fuzz && !summary.includes(line)) {
        fuzzInputs += Number(fuzz[2])
        summary.push(line)
      }
      if (/^kill -9 x\d+/.test(line) || /crash trials: \d+/.test(line)) summary.push(line)
    }
  }
}
child.stdout.on('data', reader(process.stdout))
child.stderr.on('data', reader(process.stderr))
child.on('exit', (code) => {
  const minutes = ((Date.now() - started) / 60_000).toFixed(1)
  console.log(`\n=== long mode, ${minutes} min, vitest exit ${code} ===`)
  for (const line of summary) console.log(line)
  console.log(`fuzzed inputs in all: ${fuzzInputs.toLocaleString('en')}`)
  process.exit(code ?? 1)
})

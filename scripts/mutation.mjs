#!/usr/bin/env node
/**
 * npm run mutation [-- --set NAME] [-- --summary]: StrykerJS (vitest runner) over the
 * security-critical modules, one set at a time (stryker/stryker.config.mjs names them), niced,
 * at most two test runners. Each set's JSON report goes to docs/mutation/<set>.json; then
 * docs/mutation.md is written from every report there: the score per module and each mutant
 * that survived, with why it is harmless where stryker/harmless.json says so. `--summary` only
 * rewrites docs/mutation.md from the reports already there. Not part of npm test or CI: a full
 * run takes a long while on a shared 2-core machine.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { SETS } from '../stryker/stryker.config.mjs'

const root = resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const only = args.includes('--set') ? args[args.indexOf('--set') + 1] : null
const summaryOnly = args.includes('--summary')

if (!summaryOnly) {
  for (const set of only ? [only] : Object.keys(SETS)) {
    console.log(`mutation: set ${set}`)
    const run = spawnSync(
      'nice',
      ['-n', '15', join(root, 'node_modules/.bin/stryker'), 'run', 'stryker/stryker.config.mjs'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, TICKDESK_MUTATION_SET: set, TICKDESK_MUTATION_CONCURRENCY: '2' },
      },
    )
    if (run.status !== 0) {
      console.error(`mutation: set ${set} failed (exit ${run.status})`)
      process.exitCode = 1
    }
  }
}

const harmless = JSON.parse(readFileSync(join(root, 'stryker/harmless.json'), 'utf8'))
// Where a set's report is older than its specs (a full run did not fit), the note says so.
const notesFile = join(root, 'stryker/report-notes.json')
const notes = existsSync(notesFile) ? JSON.parse(readFileSync(notesFile, 'utf8')) : {}
const rows = []
const survivors = []
for (const set of Object.keys(SETS)) {
  const file = join(root, 'docs/mutation', `${set}.json`)
  if (!existsSync(file)) continue
  const report = JSON.parse(readFileSync(file, 'utf8'))
  for (const [path, { mutants }] of Object.entries(report.files)) {
    const count = (...states) => mutants.filter((m) => states.includes(m.status)).length
    const killed = count('Killed', 'Timeout')
    const left = mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    const valid = killed + left.length
    rows.push({ set, path, killed, left: left.length, score: valid ? (100 * killed) / valid : 100 })
    for (const m of left) {
      const at = `${path}:${m.location.start.line}:${m.location.start.column}`
      const key = `${at} ${m.mutatorName}`
      survivors.push({
        at,
        mutator: m.mutatorName,
        replacement: m.replacement,
        status: m.status,
        why: harmless[key] ?? null,
      })
    }
  }
}

const total = rows.reduce((a, r) => ({ killed: a.killed + r.killed, left: a.left + r.left }), {
  killed: 0,
  left: 0,
})
const pct = (n) => `${n.toFixed(1)} %`
const lines = [
  '# Mutation testing of the security-critical modules',
  '',
  'Made by `npm run mutation` (StrykerJS with its vitest runner, stryker/stryker.config.mjs; the',
  'specs it runs: vitest.mutation.config.ts). Each set’s full report is the JSON beside this page',
  'in docs/mutation/; this page is written from them (`npm run mutation -- --summary`). A mutant',
  'is killed when a spec fails with it in place; the score is killed (or timed out) over killed and',
  'survived.',
  '',
  '| set | module | killed | survived | score |',
  '| --- | --- | ---: | ---: | ---: |',
  ...rows.map((r) => `| ${r.set} | \`${r.path}\` | ${r.killed} | ${r.left} | ${pct(r.score)} |`),
  `| all | | ${total.killed} | ${total.left} | ${pct((100 * total.killed) / Math.max(1, total.killed + total.left))} |`,
  '',
  ...Object.entries(notes).flatMap(([set, note]) => [`Set ${set}: ${note}`, '']),
  '## Mutants that survived',
  '',
  survivors.length === 0
    ? 'None.'
    : [
        'Each is harmless for the reason given (stryker/harmless.json); one without a reason is a gap',
        'in the specs.',
        '',
        '| where | mutator | replaced by | why it is harmless |',
        '| --- | --- | --- | --- |',
        ...survivors.map(
          (s) =>
            `| \`${s.at}\` | ${s.mutator} | \`${String(s.replacement).replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 80)}\` | ${s.why ?? '**not explained: a gap**'} |`,
        ),
      ].join('\n'),
  '',
]
writeFileSync(join(root, 'docs/mutation.md'), lines.join('\n'))
// In the repository's own format, so `npm run lint` (prettier --check) takes the page as made.
spawnSync(join(root, 'node_modules/.bin/prettier'), ['--write', 'docs/mutation.md'], { cwd: root })
console.log(
  `mutation: docs/mutation.md written (${rows.length} modules, ${survivors.length} survivors)`,
)

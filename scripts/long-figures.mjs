// The long run's figures (docs/figures/alerts-long.json) gathered from the tests' `long-figure`
// lines, and the text docs/alerts-guarantees.md shows of them. scripts/test-long.mjs writes both;
// test/faults/alerts-figures.spec.ts fails when the doc's text is not what the JSON says, and when
// the code the long run tested has changed since the commit the JSON records.
import { spawnSync } from 'node:child_process'

export const FIGURES_PATH = 'docs/figures/alerts-long.json'
export const DOC_PATH = 'docs/alerts-guarantees.md'
export const BEGIN =
  '<!-- long-figures: written by scripts/test-long.mjs from docs/figures/alerts-long.json -->'
export const END = '<!-- /long-figures -->'

/** The full long mode's counts, which a run's fraction scales (test/long-mode.ts). */
export const FULL_SCALE = {
  'kill-mid-save files': 1000,
  'kill-mid-save journal': 300,
  'random kills watch and alerts run': 300,
  'random kills browser host': 200,
  'fuzz scale': 25,
}

/**
 * What the long run executes: the client under Node (the app service, the CLI, the browser
 * host's server side, the engine, persistence, the simulator), its tests and this script. Not
 * the renderer nor the Electron host, which it never runs. A change to any of these since the
 * recorded commit makes the figures stale.
 */
export const CODE_UNDER_TEST = [
  'src',
  ':(exclude)src/renderer',
  ':(exclude)src/main',
  ':(exclude)src/preload',
  // Unit specs and room READMEs beside the code: the long run never executes them.
  ':(exclude,glob)src/**/*.spec.ts',
  ':(exclude,glob)src/**/README.md',
  'bin',
  'test/faults',
  'test/fuzz',
  'test/long-mode.ts',
  'test/long-walks.mjs',
  'scripts/test-long.mjs',
  'scripts/long-figures.mjs',
  'package-lock.json',
]

const git = (root, args) => {
  const r = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim() || r.error}`)
  return r.stdout.trim()
}

/**
 * The build a run measures: the commit checked out, and whether the code under test matched it
 * (no change, staged or not, and no new file under it).
 */
export function buildOf(root) {
  const commit = git(root, ['rev-parse', 'HEAD'])
  return { commit, clean: changedSince(root, commit).length === 0 }
}

/** Files under test that differ from `commit` now (edited, added or removed, committed or not). */
export function changedSince(root, commit) {
  const paths = ['--', ...CODE_UNDER_TEST]
  const changed = git(root, ['diff', '--name-only', commit, ...paths])
  const added = git(root, ['ls-files', '--others', '--exclude-standard', ...paths])
  return [...changed.split('\n'), ...added.split('\n')].filter((l) => l !== '')
}

const add = (into, from, keys) => {
  for (const k of keys) into[k] = (into[k] ?? 0) + (from[k] ?? 0)
}

/** Folds the `long-figure` records of a run into the JSON's shape. */
export function gather(records) {
  const crashPoints = {}
  const randomKills = {}
  const killMidSave = {}
  const fuzz = { inputs: 0, failures: 0, byFile: {}, seeds: [] }
  const ownership = { pairs: {}, stopped: {}, takeoverKilled: {} }
  for (const r of records) {
    if (r.name === 'ownership pair') {
      ownership.pairs[`${r.first} then ${r.second}`] = r.delivered
    } else if (r.name === 'owner stopped') {
      ownership.stopped[`${r.owner} stopped, ${r.other} delivered`] = r.deliveredMs
    } else if (r.name === 'take-over killed') {
      ownership.takeoverKilled[r.point] = r.deliveredMs
    } else if (r.name === 'crash point') {
      const target = (crashPoints[r.target] ??= {})
      add((target[r.point] ??= {}), r, ['trials', 'lost', 'repeated', 'replayed'])
    } else if (r.name.startsWith('random kills ')) {
      const name = r.name.slice('random kills '.length)
      const into = (randomKills[name] ??= { landed: {} })
      add(into, r, ['trials', 'lost', 'repeated', 'replayed'])
      add(into.landed, r.landed ?? {}, Object.keys(r.landed ?? {}))
    } else if (r.name.startsWith('kill-mid-save ')) {
      const name = r.name.slice('kill-mid-save '.length)
      add((killMidSave[name] ??= {}), r, ['trials', 'lost', 'corrupt', 'tornTails'])
    } else if (r.name === 'fuzz') {
      fuzz.inputs += r.inputs
      fuzz.failures += r.failures
      fuzz.byFile[r.file] = (fuzz.byFile[r.file] ?? 0) + r.inputs
      if (!fuzz.seeds.includes(r.seed)) fuzz.seeds.push(r.seed)
    }
  }
  return { crashPoints, randomKills, killMidSave, fuzz, ownership }
}

const n = (x) => Number(x ?? 0).toLocaleString('en')
const sum = (rows, key) => rows.reduce((a, r) => a + (r[key] ?? 0), 0)

/** The doc's text of the figures: every number in it comes from `figures`. */
export function render(figures) {
  const f = figures
  const lines = [
    `Figures of the last long run, read from \`${FIGURES_PATH}\` (${f.command}, ${f.ranAt.slice(0, 10)}, ` +
      `commit ${f.build.commit.slice(0, 10)}${f.build.clean ? '' : ' with uncommitted changes'}, ` +
      `${f.minutes} min at nice 10 on the shared 2-core machine, vitest exit ${f.vitestExit}). ` +
      `Scale: ${f.fraction} of the full long mode's counts. Each figure is what a test counted ` +
      `and checked; a test that fails writes none.`,
    '',
  ]
  for (const [target, points] of Object.entries(f.crashPoints)) {
    const rows = Object.values(points)
    const each = Math.min(...rows.map((r) => r.trials))
    lines.push(
      `- Crash points, **${target}**: ${Object.keys(points).length} points walked, each at least ` +
        `${each === 1 ? 'once' : `${each} times`} (${sum(rows, 'trials')} walks): lost ${sum(rows, 'lost')}, ` +
        `unmarked repeats ${sum(rows, 'repeated')}, marked replays ${sum(rows, 'replayed')}` +
        ` (${
          Object.entries(points)
            .filter(([, r]) => r.replayed > 0)
            .map(([p]) => `\`${p}\``)
            .join(', ') || 'none'
        }).`,
    )
  }
  for (const [name, r] of Object.entries(f.randomKills)) {
    const landed = Object.entries(r.landed)
      .map(([where, count]) => `${where} ${count}`)
      .join(', ')
    lines.push(
      `- Random kill -9 around fires, **${name}**: ${n(r.trials)} trials, lost ${r.lost}, ` +
        `unmarked repeats ${r.repeated}, marked replays ${r.replayed}; where the kills landed: ${landed}.`,
    )
  }
  const files = f.killMidSave.files
  const journal = f.killMidSave.journal
  if (files)
    lines.push(
      `- Killed mid-save (watchlists, positions, alerts, settings, quote cache): ${n(files.trials)} ` +
        `kill -9s, lost ${files.lost}, corrupt ${files.corrupt}.`,
    )
  if (journal)
    lines.push(
      `- The fire journal killed mid-append or mid-compaction: ${n(journal.trials)} kill -9s, lost ` +
        `${journal.lost}, corrupt ${journal.corrupt}; ${journal.tornTails} kill(s) left a torn last line.`,
    )
  lines.push(...ownershipLines(f.ownership))
  lines.push(
    `- Fuzz: ${n(f.fuzz.inputs)} inputs generated and tried (counted as predicate runs), ` +
      `failures ${f.fuzz.failures}: ${Object.entries(f.fuzz.byFile)
        .map(([file, count]) => `${file} ${n(count)}`)
        .join(', ')}.`,
  )
  return lines.join('\n')
}

/** The ownership walks' lines: delivery times, each a range over the walks that ran. */
function ownershipLines(o) {
  if (o === undefined) return []
  const range = (values) =>
    values.length === 0
      ? 'none'
      : `${Math.min(...values).toLocaleString('en')}-${Math.max(...values).toLocaleString('en')} ms`
  const pairs = Object.values(o.pairs)
  const stopped = Object.values(o.stopped)
  const killed = Object.values(o.takeoverKilled)
  return [
    `- Ownership, every pair of processes started in either order and the first restarted ` +
      `(${pairs.length} walks): each crossing reached the webhook once, ${range(pairs.flat())} ` +
      `after it (target 5 s).`,
    `- The owner stopped with SIGSTOP (${stopped.length} walks): the other process delivered the ` +
      `crossing ${range(stopped)} after the stop (target 20 s); resumed, the owner repeated nothing.`,
    `- A take-over killed at each of its steps (${killed.length}): the next process delivered the ` +
      `owed fire once, ${range(killed)} after it started.`,
  ]
}

/** The doc with its figures block replaced by `text`; throws when the markers are missing. */
export function withFigures(doc, text) {
  const from = doc.indexOf(BEGIN)
  const to = doc.indexOf(END)
  if (from < 0 || to < from) throw new Error(`${DOC_PATH} has no figures block (${BEGIN})`)
  return `${doc.slice(0, from + BEGIN.length)}\n\n${text}\n\n${doc.slice(to)}`
}

/** The text between the markers, as written. */
export function figuresIn(doc) {
  const from = doc.indexOf(BEGIN)
  const to = doc.indexOf(END)
  if (from < 0 || to < from) return null
  return doc.slice(from + BEGIN.length, to).trim()
}

import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { FireJournal } from '../../src/core/persistence/fire-journal'
import { seededRandom } from '../../src/core/random'
import { reportFigure, scaled } from '../long-mode'
import { JOURNAL_BATCH, readJournalRun } from './fixtures/journal-fires'
import { SAVE_KINDS, type SaveKind } from './fixtures/save-kinds'
import { tempDir } from './harness'

/**
 * The process killed mid-save: a child keeps saving one file of the data dir (watchlists,
 * positions, alerts, settings or the quote cache, in turn) with the real JsonStore and atomic
 * writer (temp file + fsync + rename); we SIGKILL it at a random moment, again and again on one
 * data dir: 10 times in CI (its time budget), 1000 in the long mode (npm run test:long). Afterwards every file must
 * be a whole version, never a torn one, and the next start must load exactly that version.
 * The alert fire journal likewise: killed mid-append or mid-compaction,
 * it must load with every fire it reported written, none lost or corrupted, the next run's
 * appends included.
 */

const ITERATIONS = scaled(10, Number(process.env.TICKDESK_KILL_TRIALS ?? 1000))
const JOURNAL_TRIALS = scaled(6, Number(process.env.TICKDESK_JOURNAL_TRIALS ?? 300))
const SEED = Number(process.env.TICKDESK_KILL_SEED ?? 42)

/** A child bundled into one CommonJS file: plain node starts it in ~0.1 s, tsx in ~1 s. */
async function bundle(source: string): Promise<string> {
  const outfile = join(tempDir(), source.replace(/\.ts$/, '.cjs'))
  await build({
    entryPoints: [fileURLToPath(new URL(`./fixtures/${source}`, import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  })
  return outfile
}

let child = ''
let journalChild = ''
beforeAll(async () => {
  child = await bundle('save-loop.ts')
  journalChild = await bundle('journal-loop.ts')
})

interface Run {
  loaded: number
  lastSaved: number
  problems: string[]
}

function runAndKill(args: string[], killAfterMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const run: Run = { loaded: -1, lastSaved: -1, problems: [] }
    let buffered = ''
    let armed = false
    let stderr = ''
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    proc.stdout.on('data', (d: Buffer) => {
      buffered += d.toString()
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) {
        const [word, rest] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)]
        if (word === 'loaded') run.loaded = Number(rest)
        if (word === 'problem') run.problems.push(rest)
        if (word === 'saved') run.lastSaved = Number(rest)
        if (word === 'saved' && !armed) {
          armed = true
          setTimeout(() => proc.kill('SIGKILL'), killAfterMs)
        }
      }
    })
    proc.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(run)
      else reject(new Error(`child exited ${code}: ${stderr}`))
    })
  })
}

/** The version a whole file holds; throws if the file is torn, mixed or not JSON. */
function versionIn(kind: SaveKind, path: string): number {
  const file = JSON.parse(readFileSync(path, 'utf8')) as { version: number; data: unknown }
  expect(typeof file.version).toBe('number')
  return kind.versionOf(file.data)
}

describe('faults: the process killed mid-save', () => {
  it(
    `leaves the old or the new file, never a broken one (${ITERATIONS} kill -9s)`,
    async () => {
      const dir = tempDir()
      const random = seededRandom(SEED)
      const previous = new Map<string, number>(SAVE_KINDS.map((k) => [k.file, 0]))
      const started = performance.now()
      let strayTemps = 0
      for (let i = 0; i < ITERATIONS; i++) {
        const kind = SAVE_KINDS[i % SAVE_KINDS.length]!
        const where = `trial ${i} (${kind.file}, seed ${SEED})`
        const run = await runAndKill([child, dir, kind.file], Math.floor(random() * 40))
        expect(run.problems, where).toEqual([])
        expect(run.loaded, `${where} starts from what is on disk`).toBe(previous.get(kind.file))
        const current = versionIn(kind, join(dir, `${kind.file}.json`))
        // The last save reported done is on disk, or the one in flight when the kill came.
        expect(current - run.lastSaved, where).toBeGreaterThanOrEqual(0)
        expect(current - run.lastSaved, where).toBeLessThanOrEqual(1)
        // Killed between the backup write and the rename, the backup equals the old current.
        const backup = join(dir, `${kind.file}.bak.json`)
        if (existsSync(backup)) expect(versionIn(kind, backup), where).toBeLessThanOrEqual(current)
        strayTemps = readdirSync(dir).filter((f) => !f.endsWith('.json')).length
        previous.set(kind.file, current)
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(0)
      const reached = [...previous].map(([file, v]) => `${file} v${v}`).join(', ')
      // write-file-atomic's temp files of killed writes may stay behind; they are never read.
      console.log(
        `kill -9 x${ITERATIONS} (seed ${SEED}, ${seconds} s): 0 lost, 0 corrupt; reached ${reached}; ${strayTemps} stray temp file(s)`,
      )
      for (const v of previous.values())
        expect(v).toBeGreaterThanOrEqual(ITERATIONS / SAVE_KINDS.length)
      reportFigure('kill-mid-save files', { trials: ITERATIONS, lost: 0, corrupt: 0, seed: SEED })
    },
    scaled(120_000, 6 * 3600_000),
  )

  it(
    `the fire journal killed mid-append or mid-compaction loses and corrupts no fire (${JOURNAL_TRIALS} kill -9s)`,
    async () => {
      const dir = tempDir()
      const random = seededRandom(SEED + 1)
      const journal = new FireJournal(dir)
      let last = 0
      let tornTails = 0
      let skipped = 0
      for (let i = 0; i < JOURNAL_TRIALS; i++) {
        const where = `journal trial ${i} (seed ${SEED + 1})`
        const run = await runAndKill([journalChild, dir], Math.floor(random() * 60))
        expect(run.problems, `${where}: what the child read`).toEqual([])
        expect(run.loaded, `${where} starts from what is on disk`).toBe(last)
        const text = readFileSync(journal.path, 'utf8')
        if (text.length > 0 && !text.endsWith('\n')) tornTails++
        const read = journal.read()
        skipped = read.skipped
        const found = readJournalRun(read)
        // No gap (a lost fire) and no fire that is not whole (a corrupted one).
        expect(found.problems, where).toEqual([])
        // Every fire fired() reported written is there; beyond it only the batch in flight.
        expect(found.last, where).toBeGreaterThanOrEqual(run.lastSaved)
        expect(found.last, where).toBeLessThanOrEqual(run.lastSaved + JOURNAL_BATCH)
        last = found.last
      }
      console.log(
        `journal kill -9 x${JOURNAL_TRIALS} (seed ${SEED + 1}): 0 lost, 0 corrupt; ${last} fires appended; ${tornTails} kill(s) left a torn last line; ${skipped} torn line(s) in the final journal`,
      )
      reportFigure('kill-mid-save journal', {
        trials: JOURNAL_TRIALS,
        lost: 0,
        corrupt: 0,
        tornTails,
        fires: last,
        seed: SEED + 1,
      })
    },
    scaled(120_000, 3 * 3600_000),
  )
})

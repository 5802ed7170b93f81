import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/core/random'
import { tempDir } from './harness'

/**
 * The process killed mid-save: a child keeps saving the watchlists with the real JsonStore and
 * atomic writer (temp file + fsync + rename); we SIGKILL it at random moments, 20 times in a row
 * on one data dir. Afterwards every file must be a whole version, never a torn one.
 */

const CHILD = fileURLToPath(new URL('./fixtures/save-loop.ts', import.meta.url))
const ITERATIONS = 20

interface Run {
  loaded: number
  lastSaved: number
  problems: string[]
}

function runAndKill(dir: string, killAfterMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const run: Run = { loaded: -1, lastSaved: -1, problems: [] }
    let buffered = ''
    let armed = false
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
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
          setTimeout(() => child.kill('SIGKILL'), killAfterMs)
        }
      }
    })
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(run)
      else reject(new Error(`child exited ${code}: ${stderr}`))
    })
  })
}

/** The version a whole watchlists file holds, or an error describing how it is broken. */
function versionIn(path: string): number {
  const file = JSON.parse(readFileSync(path, 'utf8')) as {
    version: number
    data: { watchlists: { name: string; symbols: string[] }[] }
  }
  expect(file.version).toBe(1)
  const list = file.data.watchlists[0]
  const n = Number(/^v(\d+)$/.exec(list?.name ?? '')?.[1])
  expect(list?.symbols.length, `symbols of v${n}`).toBe((n % 40) + 1)
  return n
}

describe('faults: the process killed mid-save', () => {
  it(`leaves the old or the new watchlists file, never a broken one (${ITERATIONS} kill -9s)`, async () => {
    const dir = tempDir()
    const random = seededRandom(42)
    let previous = 0
    let strayTemps = 0
    for (let i = 0; i < ITERATIONS; i++) {
      const run = await runAndKill(dir, Math.floor(random() * 40))
      expect(run.problems, `iteration ${i}`).toEqual([])
      expect(run.loaded, `iteration ${i} starts from what is on disk`).toBe(previous)
      const current = versionIn(join(dir, 'watchlists.json'))
      // The last save reported done is on disk, or the one in flight when the kill came.
      expect(current - run.lastSaved).toBeGreaterThanOrEqual(0)
      expect(current - run.lastSaved).toBeLessThanOrEqual(1)
      // Killed between the backup write and the rename, the backup equals the old current.
      if (existsSync(join(dir, 'watchlists.bak.json')))
        expect(versionIn(join(dir, 'watchlists.bak.json'))).toBeLessThanOrEqual(current)
      strayTemps = readdirSync(dir).filter((f) => !f.endsWith('.json')).length
      previous = current
    }
    // write-file-atomic's temp files of killed writes may stay behind; they are never read.
    console.log(`kill -9 x${ITERATIONS}: reached v${previous}, ${strayTemps} stray temp file(s)`)
    expect(previous).toBeGreaterThanOrEqual(ITERATIONS)
  }, 90_000)
})

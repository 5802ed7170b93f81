import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { cpus, hostname, totalmem } from 'node:os'
import type { CommitRuns } from './judge'

/**
 * The guard's committed history (bench/guard/history.jsonl): one line per bench run, with the
 * machine it ran on, the commit it measured, the clock it ran under, the load beside it and its
 * headline figures (figures.ts). Lines are only ever appended; a run is judged against the lines
 * of its own machine and form (full or short) only.
 */
export interface Machine {
  /** Short hash of the rest: the key runs are grouped by. */
  id: string
  host: string
  cpus: number
  model: string
  memGB: number
}

export interface RunRecord {
  commit: string
  /** Uncommitted changes were in the tree measured. */
  dirty: boolean
  subject: string
  machine: Machine
  /** When the run started (the real clock). */
  at: string
  /** The clock the bench ran under: 'real', or the faked instant ('weekday 2026-12-02T15:00Z'). */
  clock: string
  form: 'full' | 'short'
  /** The 1-minute load average before and after the run. */
  load: { before: number; after: number }
  figures: Record<string, number>
  /** Set when a slip was kept on purpose: judging starts again from this commit. */
  accepted?: string
}

export function thisMachine(): Machine {
  const cpu = cpus()
  const host = hostname()
  const model = cpu[0]?.model.trim() ?? ''
  const memGB = Math.round(totalmem() / 2 ** 30)
  const id = createHash('sha256')
    .update(`${host}|${cpu.length}|${model}|${memGB}`)
    .digest('hex')
    .slice(0, 12)
  return { id, host, cpus: cpu.length, model, memGB }
}

export function readHistory(file: string): RunRecord[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as RunRecord
      } catch {
        throw new Error(`${file}:${i + 1} is not a JSON line`)
      }
    })
}

export function appendRecord(file: string, record: RunRecord): void {
  appendFileSync(file, `${JSON.stringify(record)}\n`)
}

/**
 * One figure's recorded runs per commit, oldest commit first, for this machine and form, from
 * the newest accepted slip on (and without `exclude`, the commit being judged).
 */
export function commitRuns(
  records: readonly RunRecord[],
  figure: string,
  machine: string,
  form: RunRecord['form'],
  exclude: string | null,
): CommitRuns[] {
  const mine = records.filter((r) => r.machine.id === machine && r.form === form)
  const lastAccepted = mine.findLastIndex((r) => r.accepted !== undefined)
  const byCommit = new Map<string, number[]>()
  for (const r of mine.slice(Math.max(0, lastAccepted))) {
    // A dirty tree's runs measured something no commit holds: they are kept, not judged against.
    if (r.dirty || r.commit === exclude) continue
    const v = r.figures[figure]
    if (v === undefined) continue
    const list = byCommit.get(r.commit) ?? []
    list.push(v)
    byCommit.set(r.commit, list)
  }
  return [...byCommit].map(([commit, values]) => ({ commit, values }))
}

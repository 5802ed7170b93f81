import { readdirSync, readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'

/**
 * CPU and memory of process trees, read from /proc as a CPU meter does. Trees are walked from a
 * root pid through parent links (never by process name: other Chromiums run on this machine).
 * CPU is utime + stime; a process born during a phase counts from zero, one that exits keeps the
 * ticks last seen, so sample() during the phase, not only at its ends.
 */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100

export interface Stat {
  ppid: number
  ticks: number
}

export function readStat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces and parentheses).
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) }
  } catch {
    return null
  }
}

/** The root and every process below it, now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    const stat = readStat(pid)
    if (stat === null) continue
    const list = children.get(stat.ppid) ?? []
    list.push(pid)
    children.set(stat.ppid, list)
  }
  const out: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const pid = queue.shift() as number
    out.push(pid)
    queue.push(...(children.get(pid) ?? []))
  }
  return out
}

/** Proportional set size of one process, in bytes (shared pages split among their sharers). */
export function pssBytes(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))
    return m ? Number(m[1]) * 1024 : 0
  } catch {
    return 0
  }
}

export class TreeMeter {
  private readonly first = new Map<number, number>()
  private readonly last = new Map<number, number>()
  private startedAt = 0
  private maxPss = 0

  constructor(private readonly root: number) {}

  start(): void {
    this.first.clear()
    this.last.clear()
    this.maxPss = 0
    this.startedAt = performance.now()
    for (const pid of processTree(this.root)) {
      const s = readStat(pid)
      if (s) this.first.set(pid, s.ticks)
    }
    this.sample()
  }

  /** Picks up processes born since the last sample and the tree's PSS now. */
  sample(): void {
    let pss = 0
    for (const pid of processTree(this.root)) {
      const s = readStat(pid)
      if (s === null) continue
      if (!this.first.has(pid)) this.first.set(pid, 0)
      this.last.set(pid, s.ticks)
      pss += pssBytes(pid)
    }
    this.maxPss = Math.max(this.maxPss, pss)
  }

  /** CPU over the phase as % of one core, and the largest PSS seen, in MB. */
  stop(): { cpuPct: number; maxPssMB: number; seconds: number } {
    this.sample()
    const seconds = (performance.now() - this.startedAt) / 1000
    let ticks = 0
    for (const [pid, end] of this.last) ticks += end - (this.first.get(pid) ?? 0)
    return {
      cpuPct: (ticks / CLK_TCK / seconds) * 100,
      maxPssMB: this.maxPss / 1048576,
      seconds,
    }
  }
}

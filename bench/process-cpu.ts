import { readFileSync } from 'node:fs'
import { CLK_TCK, processTree, readStat } from './render/proc-stats'

/**
 * CPU time of this process and the Chromium below it over one phase, by kind of process, read
 * from /proc (utime + stime) as a CPU meter does: what a cold start's wall time was spent on
 * across the machine's two cores, and how much of it was Chromium's own window rather than the
 * page. A process born during the phase counts from zero.
 */
export type ProcessKind = 'host' | 'page' | 'window UI' | 'browser' | 'other'

function kindOf(pid: number): ProcessKind {
  if (pid === process.pid) return 'host'
  let cmd: string
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
  } catch {
    return 'other'
  }
  if (!cmd.includes('chromium') && !cmd.includes('chrome')) return 'other'
  // A new window's own WebUI (the omnibox popup) runs in a renderer of its own.
  if (cmd.includes('--top-chrome-webui')) return 'window UI'
  if (cmd.includes('--type=renderer')) return 'page'
  return cmd.includes('--type=') ? 'other' : 'browser'
}

export class ProcessCpu {
  private readonly first = new Map<number, number>()

  start(): void {
    this.first.clear()
    for (const pid of processTree(process.pid)) {
      const s = readStat(pid)
      if (s) this.first.set(pid, s.ticks)
    }
  }

  /** ms of CPU each kind used since start(). */
  stop(): Record<ProcessKind, number> {
    const ms: Record<ProcessKind, number> = {
      host: 0,
      page: 0,
      'window UI': 0,
      browser: 0,
      other: 0,
    }
    for (const pid of processTree(process.pid)) {
      const s = readStat(pid)
      if (s === null) continue
      ms[kindOf(pid)] += ((s.ticks - (this.first.get(pid) ?? 0)) / CLK_TCK) * 1000
    }
    return ms
  }
}

/** "host 40, page 120, …" in ms. */
export function cpuLine(ms: Record<ProcessKind, number>): string {
  return Object.entries(ms)
    .map(([k, v]) => `${k} ${Math.round(v)}`)
    .join(', ')
}

/** CPU ticks used so far by the Chromium below this process. */
function chromiumTicks(): number {
  let ticks = 0
  for (const pid of processTree(process.pid)) {
    if (pid === process.pid || kindOf(pid) === 'other') continue
    ticks += readStat(pid)?.ticks ?? 0
  }
  return ticks
}

/**
 * Resolves once the Chromium below this process has been all but idle (at most 2 ticks, 20 ms,
 * in `windowMs`), or after `maxMs`. A new page is a new window, and Chromium then builds that
 * window's own UI (the omnibox popup's WebUI renderer) for about a second of CPU: the browser's
 * own launch, which a trader reopening the desk in a running browser does not wait for.
 */
export async function chromiumSettled(windowMs = 200, maxMs = 5000): Promise<void> {
  const until = performance.now() + maxMs
  let before = chromiumTicks()
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, windowMs))
    const now = chromiumTicks()
    if (now - before <= 2) return
    before = now
  }
}

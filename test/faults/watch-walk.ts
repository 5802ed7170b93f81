import { expect } from 'vitest'
import type { CrashPoint } from '../../src/app/alerts/crash-points'
import type { SimServer } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { tempDir } from './harness'
import { LEVEL, levelCrosser, startCli, type AlertLine, type CliRun } from './once-alerts'
import { heard, OUTCOME } from './crash-outcomes'

/** How a walk's once-alert on BTCUSDT is made, made ready to cross, and worded when it fires. */
export interface WalkedAlert {
  /** Writes the rule into the folder; returns its id. The level crossed is twice LEVEL.BTCUSDT. */
  add(dir: string, point: CrashPoint, level: number): Promise<string>
  /** Resolves once the first run may cross (default: at once). */
  ready?(dir: string, ruleId: string): Promise<void>
  /** What its fire's line says. */
  message?: RegExp
  /** The walk's name in the long run's figures. */
  target: string
}

/**
 * One crash point walked through `watch --json --run-alerts` (stdout): the process runs with TICKDESK_CRASH_AT
 * set to `point`, the alert is crossed, the process kills itself (SIGKILL) exactly there, and a
 * restart on the same folder gives the outcome docs/alerts-guarantees.md lists for that step:
 * heard once in all (late or replayed where the table says), never lost, a repeat always under
 * the same id and marked replayed.
 */
export async function walkWatch(
  sim: SimServer,
  point: CrashPoint,
  alert: WalkedAlert,
): Promise<void> {
  const dir = tempDir()
  const { cross, release } = levelCrosser(sim)
  release()
  const level = LEVEL.BTCUSDT * 2
  const ruleId = await alert.add(dir, point, level)
  const args = ['watch', '--json', '--run-alerts', 'crypto:BTCUSDT']
  const first = startCli(sim, dir, args, { TICKDESK_CRASH_AT: `${point}` })
  let second: CliRun | null = null
  try {
    await first.waitFor(() => first.quotes.has('BTCUSDT'), 'first quote')
    await alert.ready?.(dir, ruleId)
    cross('BTCUSDT', level)
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      first.child.on('exit', (_code, s) => resolve(s)),
    )
    expect(signal, 'the process killed itself at the armed point').toBe('SIGKILL')
    expect(first.alerts, 'before the kill').toHaveLength(OUTCOME[point].first)
    const s = startCli(sim, dir, args)
    second = s
    await s.waitFor(() => s.quotes.has('BTCUSDT'), 'quote after restart')
    if (OUTCOME[point].heard.length > OUTCOME[point].first)
      await s.waitFor(() => s.alerts.length > 0, 'the fire after restart')
    await new Promise((r) => setTimeout(r, 1_000)) // room for a repeat to show
    const lines: AlertLine[] = [...first.alerts, ...s.alerts].filter((a) => a.ruleId === ruleId)
    expect(new Set(lines.map((l) => l.id)).size, JSON.stringify(lines)).toBe(1)
    expect(lines.map((l) => l.replayed === true)).toEqual(OUTCOME[point].heard)
    if (alert.message) expect(lines[0]?.message).toMatch(alert.message)
    reportFigure('crash point', { target: alert.target, point, ...heard(lines) })
  } finally {
    release()
    first.child.kill('SIGKILL')
    second?.child.kill('SIGTERM')
    await second?.exited
  }
}

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CRASH_POINTS } from '../../src/app/alerts/crash-points'
import { startSimulator, type SimServer } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser, startCli, type CliRun } from './once-alerts'
import { armedAt, heard, OUTCOME, WALK_TIMEOUT_MS } from './crash-outcomes'

/**
 * Every crash point of a fire for the desktop notification target:
 * `tickdesk alerts run` with a `notify-send` of our own first on PATH (a script that appends each
 * notification's title and body to a file: the desktop as the runner sees it), killed at each
 * step, restarted on the same folder; the notifications shown must match the table in
 * docs/alerts-guarantees.md, a replay's body starting "(again)".
 */

let sim: SimServer
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 43 })
})
afterEach(async () => {
  await sim.close()
})

/** A notify-send that records instead of showing; returns its folder and what it recorded. */
function fakeNotifySend(dir: string): { bin: string; shown: () => string[] } {
  const bin = join(dir, 'bin')
  const log = join(dir, 'notifications.txt')
  mkdirSync(bin, { recursive: true })
  const script = join(bin, 'notify-send')
  writeFileSync(
    script,
    `#!/bin/sh\nfor a in "$@"; do last="$a"; done\nprintf '%s\\n' "$last" >> '${log}'\n`,
  )
  chmodSync(script, 0o755)
  return {
    bin,
    shown: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  }
}

describe('every crash point of a fire, through alerts run and the desktop notification', () => {
  for (const point of CRASH_POINTS) {
    const armed = armedAt(point, 'desktop')
    it(
      `killed at "${armed}": ${JSON.stringify(OUTCOME[point])}`,
      async () => {
        const dir = tempDir()
        const desk = fakeNotifySend(dir)
        const { cross, release } = levelCrosser(sim)
        release()
        await addOnceAlerts(dir, point, { SOLUSDT: LEVEL.SOLUSDT * 2 }, sim)
        const env = { PATH: `${desk.bin}:${process.env.PATH ?? ''}` }
        const args = ['alerts', 'run', '--json']
        const first = startCli(sim, dir, args, { ...env, TICKDESK_CRASH_AT: armed })
        let second: CliRun | null = null
        try {
          await first.waitFor(() => first.stderr().includes('feed live'), 'the runner live')
          cross('SOLUSDT', LEVEL.SOLUSDT * 2)
          const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
            first.child.on('exit', (_code, s) => resolve(s)),
          )
          expect(signal, 'the process killed itself at the armed point').toBe('SIGKILL')
          expect(desk.shown(), 'before the kill').toHaveLength(OUTCOME[point].first)
          second = startCli(sim, dir, args, env)
          const expected = OUTCOME[point].heard.length
          await second.waitFor(
            () => desk.shown().length >= expected,
            'the notifications after restart',
          )
          await new Promise((r) => setTimeout(r, 1_000)) // room for a repeat to show
          const shown = desk.shown()
          expect(
            shown.map((b) => b.startsWith('(again) ')),
            JSON.stringify(shown),
          ).toEqual(OUTCOME[point].heard)
          expect(new Set(shown.map((b) => b.replace('(again) ', ''))).size).toBe(1)
          const lines = shown.map((b) => ({ replayed: b.startsWith('(again) ') }))
          reportFigure('crash point', { target: 'desktop', point, ...heard(lines) })
        } finally {
          release()
          first.child.kill('SIGKILL')
          second?.child.kill('SIGTERM')
          await second?.exited
        }
      },
      WALK_TIMEOUT_MS,
    )
  }
})

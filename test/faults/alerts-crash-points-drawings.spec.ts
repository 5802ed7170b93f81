import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CRASH_POINTS } from '../../src/app/alerts/crash-points'
import { startSimulator, type SimServer } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { tempDir } from './harness'
import {
  addTrendAlerts,
  LEVEL,
  levelCrosser,
  sideSaved,
  startCli,
  type CliRun,
} from './once-alerts'
import { heard, OUTCOME, WALK_TIMEOUT_MS } from './crash-outcomes'

/**
 * Every crash point of a trend-line alert's fire, walked as a level alert's are
 * (alerts-crash-points.spec.ts): `watch --json` runs with TICKDESK_CRASH_AT set to one named step,
 * the price crosses a trend line the trader drew, the process kills itself there, and a restart on
 * the same folder gives the outcome docs/alerts-guarantees.md lists for that step. A line alert
 * fires on a change of side, so the walk crosses only once the rule's side is on disk: what a
 * restart needs to tell the cross from a first sight.
 */
let sim: SimServer
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 43 })
})
afterEach(async () => {
  await sim.close()
})

describe('every crash point of a trend-line fire, through watch --json (stdout)', () => {
  for (const point of CRASH_POINTS) {
    it(
      `killed at "${point}": ${JSON.stringify(OUTCOME[point])}`,
      async () => {
        const dir = tempDir()
        const { cross, release } = levelCrosser(sim)
        release()
        const level = LEVEL.BTCUSDT * 2
        const ids = await addTrendAlerts(dir, point, { BTCUSDT: level }, Date.now())
        const ruleId = ids.get('BTCUSDT') as string
        const args = ['watch', '--json', 'crypto:BTCUSDT']
        const first = startCli(sim, dir, args, { TICKDESK_CRASH_AT: `${point}` })
        let second: CliRun | null = null
        try {
          await first.waitFor(() => first.quotes.has('BTCUSDT'), 'first quote')
          await expect.poll(() => sideSaved(dir, ruleId), { timeout: 20_000 }).toBe(true)
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
          const lines = [...first.alerts, ...s.alerts].filter((a) => a.ruleId === ruleId)
          expect(new Set(lines.map((l) => l.id)).size, JSON.stringify(lines)).toBe(1)
          expect(lines.map((l) => l.replayed === true)).toEqual(OUTCOME[point].heard)
          expect(lines[0]?.message).toMatch(
            /^BTCUSDT crossed your trend line \(now [\d,.]+\), up through /,
          )
          reportFigure('crash point', { target: 'stdout, trend line', point, ...heard(lines) })
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

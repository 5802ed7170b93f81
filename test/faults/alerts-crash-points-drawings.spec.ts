import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CRASH_POINTS } from '../../src/app/alerts/crash-points'
import { startSimulator, type SimServer } from '../../src/sim'
import { addTrendAlerts, sideSaved } from './once-alerts'
import { OUTCOME, WALK_TIMEOUT_MS } from './crash-outcomes'
import { walkWatch, type WalkedAlert } from './watch-walk'

/**
 * Every crash point of a trend-line alert's fire, walked as a level alert's are
 * (alerts-crash-points.spec.ts): `watch --json --run-alerts` runs with TICKDESK_CRASH_AT set to one named step,
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

describe('every crash point of a trend-line fire, through watch --json --run-alerts (stdout)', () => {
  const trend: WalkedAlert = {
    target: 'stdout, trend line',
    add: async (dir, point, price) =>
      (await addTrendAlerts(dir, point, { BTCUSDT: price }, Date.now(), sim)).get(
        'BTCUSDT',
      ) as string,
    // A line alert fires on a change of side: the walk crosses once the side is on disk.
    ready: async (dir, ruleId) => {
      await expect.poll(() => sideSaved(dir, ruleId), { timeout: 20_000 }).toBe(true)
    },
    message: /^BTCUSDT crossed your trend line \(now [\d,.]+\), up through /,
  }
  for (const point of CRASH_POINTS)
    it(
      `killed at "${point}": ${JSON.stringify(OUTCOME[point])}`,
      () => walkWatch(sim, point, trend),
      WALK_TIMEOUT_MS,
    )
})

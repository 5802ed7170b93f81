import type { Server } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../src/core/persistence/stores'
import { freePort, listenForFires } from '../../src/app/testing/webhook-receiver'
import { CRASH_POINTS } from '../../src/app/alerts/crash-points'
import { startSimulator, type SimServer } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser, startCli, type CliRun } from './once-alerts'
import { armedAt, heard, OUTCOME, WALK_TIMEOUT_MS } from './crash-outcomes'

/**
 * Every crash point of a fire, walked, not sampled: `watch --json --run-alerts` runs
 * with TICKDESK_CRASH_AT set to one named step, a once-alert is crossed, the process kills itself
 * (SIGKILL) exactly there, and a restart on the same folder must give the outcome
 * docs/alerts-guarantees.md lists for that step: heard once in all (late or replayed where the
 * table says), never lost, a repeat always under the same id and marked replayed.
 */

// A simulator per point: a killed process's stream socket would count against the next one's
// connection limit until the simulator notices it is gone.
let sim: SimServer
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 41 })
})
afterEach(async () => {
  await sim.close()
})

describe('every crash point of a fire, through watch --json --run-alerts (stdout)', () => {
  for (const point of CRASH_POINTS) {
    it(
      `killed at "${point}": ${JSON.stringify(OUTCOME[point])}`,
      async () => {
        const dir = tempDir()
        const { cross, release } = levelCrosser(sim)
        release()
        const ids = await addOnceAlerts(dir, point, { BTCUSDT: LEVEL.BTCUSDT * 2 }, sim)
        const args = ['watch', '--json', '--run-alerts', 'crypto:BTCUSDT']
        const first = startCli(sim, dir, args, { TICKDESK_CRASH_AT: `${point}` })
        let second: CliRun | null = null
        try {
          await first.waitFor(() => first.quotes.has('BTCUSDT'), 'first quote')
          cross('BTCUSDT', LEVEL.BTCUSDT * 2)
          const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
            first.child.on('exit', (_code, s) => resolve(s)),
          )
          expect(signal, 'the process killed itself at the armed point').toBe('SIGKILL')
          expect(first.alerts, 'before the kill').toHaveLength(OUTCOME[point].first)
          const s = startCli(sim, dir, args)
          second = s
          const all = (): CliRun['alerts'] => [...first.alerts, ...s.alerts]
          await s.waitFor(() => s.quotes.has('BTCUSDT'), 'quote after restart')
          if (OUTCOME[point].heard.length > OUTCOME[point].first)
            await s.waitFor(() => s.alerts.length > 0, 'the fire after restart')
          await new Promise((r) => setTimeout(r, 1_000)) // room for a repeat to show
          const lines = all().filter((a) => a.ruleId === ids.get('BTCUSDT'))
          expect(new Set(lines.map((l) => l.id)).size, JSON.stringify(lines)).toBe(1)
          expect(lines.map((l) => l.replayed === true)).toEqual(OUTCOME[point].heard)
          reportFigure('crash point', { target: 'stdout', point, ...heard(lines) })
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

/** A webhook receiver on 127.0.0.1 that keeps every POST's fire id and replayed mark. */
async function receiver(): Promise<{
  url: string
  got: { id: string; replayed: boolean | undefined }[]
  server: Server
}> {
  const got: { id: string; replayed: boolean | undefined }[] = []
  const port = await freePort()
  const server = await listenForFires(port, (id, replayed) => got.push({ id, replayed }))
  return { url: `http://127.0.0.1:${port}/hook`, got, server }
}

describe('every crash point of a fire, through alerts run and a webhook', () => {
  for (const point of CRASH_POINTS) {
    const armed = armedAt(point, 'webhook')
    it(
      `killed at "${armed}": ${JSON.stringify(OUTCOME[point])}`,
      async () => {
        const dir = tempDir()
        const { cross, release } = levelCrosser(sim)
        release()
        await addOnceAlerts(dir, point, { ETHUSDT: LEVEL.ETHUSDT * 2 }, sim)
        const hook = await receiver()
        await openDataStores(dir).webhooks.save([
          {
            id: 'w1',
            url: hook.url,
            addedAt: 0,
            failures: 0,
            lastError: null,
            lastDeliveredAt: null,
            signed: false,
          },
        ])
        const args = ['alerts', 'run', '--json']
        const first = startCli(sim, dir, args, { TICKDESK_CRASH_AT: armed })
        let second: CliRun | null = null
        try {
          await first.waitFor(() => first.stderr().includes('feed live'), 'the runner live')
          cross('ETHUSDT', LEVEL.ETHUSDT * 2)
          const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
            first.child.on('exit', (_code, s) => resolve(s)),
          )
          expect(signal, 'the process killed itself at the armed point').toBe('SIGKILL')
          expect(hook.got, 'before the kill').toHaveLength(OUTCOME[point].first)
          second = startCli(sim, dir, args)
          const expected = OUTCOME[point].heard.length
          await second.waitFor(() => hook.got.length >= expected, 'the POSTs after restart')
          await new Promise((r) => setTimeout(r, 1_000)) // room for a repeat to show
          expect(new Set(hook.got.map((g) => g.id)), JSON.stringify(hook.got)).toEqual(
            new Set([hook.got[0]?.id]),
          )
          expect(hook.got.map((g) => g.replayed === true)).toEqual(OUTCOME[point].heard)
          reportFigure('crash point', { target: 'webhook', point, ...heard(hook.got) })
        } finally {
          release()
          first.child.kill('SIGKILL')
          second?.child.kill('SIGTERM')
          await second?.exited
          hook.server.closeAllConnections()
          await new Promise((r) => hook.server.close(r))
        }
      },
      WALK_TIMEOUT_MS,
    )
  }
})

import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDataStores } from '../../src/core/persistence/stores'
import { freePort, listenForFires } from '../../src/app/testing/webhook-receiver'
import { startSimulator, type SimServer } from '../../src/sim'
import { tempDir } from './harness'
import {
  addOnceAlerts,
  crossFiveWays,
  expectFiveOnce,
  levelCrosser,
  LEVEL,
  startCli,
  SYMBOLS,
  wakeBoundMs,
} from './once-alerts'

/**
 * Alerts exactly once through the headless runner, `tickdesk alerts run --json`, the real process
 * against the simulator on loopback, with a webhook receiver on 127.0.0.1 that is down for the
 * first minute: the same five once-alerts as `watch` and the browser host (crossed while running,
 * just after a dropped socket, during a stop with the socket dropped, while nothing ran after
 * kill -9, and after the restart). Each fire is printed once across both runs, and the receiver
 * gets each fire id once when it comes up, including the fires of the run that was killed.
 */

const DOWN_MS = 60_000

let sim: SimServer
let receiver: Server | null = null
beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 31 })
})
afterAll(async () => {
  receiver?.closeAllConnections()
  receiver?.close()
  await sim.close()
})

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe('alerts exactly once through tickdesk alerts run', () => {
  it('fires five once-alerts once each and POSTs each once to a webhook that was down for a minute', async () => {
    const { release } = levelCrosser(sim)
    const dir = tempDir()
    release()
    const levels = Object.fromEntries(SYMBOLS.map((s) => [s, LEVEL[s] * 2]))
    const ids = await addOnceAlerts(dir, 'runner', levels, sim)
    const port = await freePort()
    await openDataStores(dir).webhooks.save([
      {
        id: 'w1',
        url: `http://127.0.0.1:${port}/hook`,
        addedAt: 0,
        failures: 0,
        lastError: null,
        lastDeliveredAt: null,
        signed: false,
      },
    ])
    const posted: string[] = []
    const unmarked: string[] = []
    const startedAt = Date.now()
    const receiverUp = sleep(DOWN_MS).then(async () => {
      // A POST answered after the sender's deadline is sent again, marked replayed (at least
      // once, deduplicable by id: docs/alerts-guarantees.md); only an unmarked repeat is wrong.
      receiver = await listenForFires(port, (fireId, replayed) => {
        posted.push(fireId)
        if (replayed !== true) unmarked.push(fireId)
      })
    })
    const { first, second, afterWake, afterDrop } = await crossFiveWays(
      sim,
      { ids, levels },
      {
        start: () => startCli(sim, dir, ['alerts', 'run', '--json']),
        ready: (r) => r.stderr().includes('feed live'),
      },
    )
    expect(Date.now() - startedAt, 'every fire happened while the receiver was down').toBeLessThan(
      DOWN_MS,
    )
    expect(posted).toEqual([])
    await receiverUp
    // Back-off doubles to at most 30 s between attempts.
    await second.waitFor(() => new Set(posted).size === SYMBOLS.length, 'five POSTs', 45_000)
    await sleep(1_500) // room for a repeat to show up
    second.child.kill('SIGTERM')
    await second.exited
    release()

    const all = [...first.alerts, ...second.alerts]
    expectFiveOnce(all, ids)
    // The receiver got exactly the fires printed, the killed run's owed ones included, and none
    // twice unless the repeat says it is one.
    expect([...new Set(posted)].sort()).toEqual([...new Set(all.map((a) => a.id))].sort())
    expect(unmarked.length, `unmarked repeats in ${unmarked.join(' ')}`).toBe(
      new Set(unmarked).size,
    )
    const [hook] = (await openDataStores(dir).webhooks.load()).value
    expect(hook?.failures, 'the minute down is counted').toBeGreaterThan(0)
    expect(hook?.lastError).toBeNull()
    console.log(
      `alerts run: fired ${afterWake} ms after an 8 s stop; webhook down ${DOWN_MS / 1000} s, ${hook?.failures} failed attempts, ${posted.length} POSTs (${posted.length - unmarked.length} marked replayed) for ${all.length} fires`,
    )
    expect(afterWake).toBeLessThan(wakeBoundMs(afterDrop))
  }, 150_000)
})

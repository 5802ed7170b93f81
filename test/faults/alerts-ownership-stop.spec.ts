import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LEASE_TTL_MS } from '../../src/core/persistence/alert-lease'
import { startSimulator, type SimServer } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser } from './once-alerts'
import {
  leaseOf,
  ownerPid,
  sleep,
  startProc,
  waitUntil,
  webhookReceiver,
  type Kind,
  type Proc,
  type Receiver,
} from './ownership-rig'

/**
 * The owner stopped (SIGSTOP: a laptop lid, a hung main process, Ctrl-Z), with another process on
 * the folder: the other delivers a crossing made meanwhile within 20 s, and the stopped one,
 * resumed (SIGCONT), repeats nothing, neither the fire nor a webhook retry it was waiting on. Its
 * pid runs all along: only its lease, not renewed, says it is gone.
 */

const STOPPED_DELIVERY_MS = 20_000

let sim: SimServer
let dir: string
let hook: Receiver
let ids: Map<string, string>
const procs: Proc[] = []
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 71 })
  dir = tempDir()
  levelCrosser(sim).release()
  ids = await addOnceAlerts(
    dir,
    'stop',
    { BTCUSDT: LEVEL.BTCUSDT * 2, ETHUSDT: LEVEL.ETHUSDT * 2 },
    sim,
  )
  hook = await webhookReceiver(dir)
})
afterEach(async () => {
  levelCrosser(sim).release()
  for (const p of procs.splice(0)) {
    if (p.pid !== null) p.signal('SIGCONT')
    await p.stop()
  }
  await hook.close()
  await sim.close()
})

async function start(kind: Kind): Promise<Proc> {
  const p = await startProc(kind, sim, dir)
  procs.push(p)
  await p.ready
  return p
}

describe('the owner stopped with SIGSTOP', () => {
  for (const [owner, other] of [
    ['run', 'web'],
    ['web', 'run'],
    ['watch-run', 'app'],
  ] as [Kind, Kind][])
    it(`${owner} stopped: ${other} delivers within 20 s; ${owner} resumed repeats nothing`, async () => {
      const a = await start(owner)
      await waitUntil(() => ownerPid(dir) === a.pid, `${owner} to hold the lease`)
      const b = await start(other)
      a.signal('SIGSTOP')
      const stoppedAt = Date.now()
      levelCrosser(sim).cross('BTCUSDT', LEVEL.BTCUSDT * 2)
      await waitUntil(() => hook.of(ids.get('BTCUSDT')!).length > 0, 'the fire', 30_000)
      const took = hook.got[0]!.at - stoppedAt
      console.log(`alerts: ${other} delivered ${took} ms after ${owner} was stopped`)
      expect(took).toBeLessThan(STOPPED_DELIVERY_MS)
      expect(took).toBeGreaterThanOrEqual(LEASE_TTL_MS - 500)
      a.signal('SIGCONT')
      await waitUntil(async () => /taken over|stand/i.test(await a.said()), `${owner} to stand by`)
      await sleep(3_000) // room for a repeat to show
      expect(hook.got.map((g) => [g.ruleId, g.replayed])).toEqual([[ids.get('BTCUSDT'), false]])
      expect(a.announced(), `${owner} announced nothing after it resumed`).toEqual([])
      expect(leaseOf(dir)?.pid).toBe(b.pid ?? process.pid)
      levelCrosser(sim).cross('ETHUSDT', LEVEL.ETHUSDT * 2)
      await waitUntil(() => hook.got.length === 2, 'the next fire')
      reportFigure('owner stopped', { owner, other, deliveredMs: took })
    }, 90_000)

  it('resumed mid-retry of a webhook that was down, sends nothing: the new owner delivers once, marked replayed', async () => {
    hook.refusing = true
    const a = await start('run')
    await waitUntil(() => ownerPid(dir) === a.pid, 'the runner to hold the lease')
    const b = await start('web')
    levelCrosser(sim).cross('BTCUSDT', LEVEL.BTCUSDT * 2)
    await waitUntil(() => hook.refused > 0, 'a refused POST')
    a.signal('SIGSTOP')
    hook.refusing = false
    await waitUntil(() => hook.got.length > 0, 'the delivery by the new owner', 30_000)
    const refusedBefore = hook.refused
    a.signal('SIGCONT')
    await waitUntil(async () => /taken over|stand/i.test(await a.said()), 'the runner to stand by')
    // The runner's back-off (1 s doubling) would have come round again by now.
    await sleep(5_000)
    expect(hook.got.map((g) => [g.ruleId, g.replayed])).toEqual([[ids.get('BTCUSDT'), true]])
    expect(hook.refused).toBe(refusedBefore)
    expect(leaseOf(dir)?.pid).toBe(b.pid)
  }, 90_000)
})

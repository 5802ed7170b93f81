import { mkdirSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TAKEOVER_POINTS } from '../../src/app/alerts/crash-points'
import { startSimulator, type SimServer } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser, startCli, type CliRun } from './once-alerts'
import {
  leaseOf,
  ownerPid,
  sleep,
  waitUntil,
  webhookReceiver,
  type Receiver,
} from './ownership-rig'

/**
 * Taking the alerts over, walked with real `tickdesk alerts run` processes on one folder: killed
 * at each step of a take-over (TICKDESK_CRASH_AT), a take-over whose load fails, and three takers
 * at once. A fire owed when its owner died reaches the webhook exactly once; a once-alert never
 * fires twice; the folder never has two owners.
 */

let sim: SimServer
let dir: string
let hook: Receiver
let ids: Map<string, string>
const runs: CliRun[] = []
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 83 })
  dir = tempDir()
  levelCrosser(sim).release()
  ids = await addOnceAlerts(
    dir,
    'take',
    { BTCUSDT: LEVEL.BTCUSDT * 2, ETHUSDT: LEVEL.ETHUSDT * 2, SOLUSDT: LEVEL.SOLUSDT * 2 },
    sim,
  )
  hook = await webhookReceiver(dir)
})
afterEach(async () => {
  levelCrosser(sim).release()
  for (const r of runs.splice(0)) {
    r.child.kill('SIGKILL')
    await r.exited
  }
  await hook.close()
  await sim.close()
})

function runner(env: Record<string, string> = {}): CliRun {
  const r = startCli(sim, dir, ['alerts', 'run', '--json'], env)
  runs.push(r)
  return r
}

const killedBy = (r: CliRun): Promise<NodeJS.Signals | null> =>
  new Promise((resolve) => {
    if (r.child.exitCode !== null || r.child.signalCode !== null) resolve(r.child.signalCode)
    else r.child.once('exit', (_c, s) => resolve(s))
  })

describe('a take-over killed at each of its steps', () => {
  for (const point of TAKEOVER_POINTS)
    it(`killed at "${point}": the next process delivers the owed fire once`, async () => {
      // The owner dies with a fire journalled and handed to nobody: owed to the webhook.
      const first = runner({ TICKDESK_CRASH_AT: 'journal-append' })
      await first.waitFor(() => first.stderr().includes('feed live'), 'the owner live')
      levelCrosser(sim).cross('BTCUSDT', LEVEL.BTCUSDT * 2)
      expect(await killedBy(first)).toBe('SIGKILL')
      const taker = runner({ TICKDESK_CRASH_AT: point })
      expect(await killedBy(taker), `killed itself at ${point}`).toBe('SIGKILL')
      const started = Date.now()
      const last = runner()
      await waitUntil(() => hook.got.length > 0, 'the owed fire', 20_000)
      const ms = hook.got[0]!.at - started
      await sleep(2_000) // room for a repeat, and for a second fire of the once-alert
      expect(hook.got.map((g) => [g.ruleId, g.replayed])).toEqual([[ids.get('BTCUSDT'), false]])
      expect(ownerPid(dir)).toBe(last.child.pid)
      console.log(
        `alerts: take-over killed at ${point}; the next delivered the owed fire in ${ms} ms`,
      )
      reportFigure('take-over killed', { point, deliveredMs: ms, posts: hook.got.length })
    }, 90_000)
})

describe('a take-over whose load fails', () => {
  it('does not run the alerts on what it holds, says so, gives the lease back, and takes over once it can read', async () => {
    const journal = join(dir, 'alert-fires.ndjson')
    mkdirSync(journal) // a journal that cannot be read (EISDIR)
    const r = runner()
    await r.waitFor(() => /could not read the alert files/i.test(r.stderr()), 'the failed load')
    await r.waitFor(() => r.stderr().includes('feed live'), 'the runner live')
    expect(r.stderr()).toMatch(/no process runs them now/)
    expect(leaseOf(dir)?.released).toBe(true)
    levelCrosser(sim).cross('BTCUSDT', LEVEL.BTCUSDT * 2)
    await sleep(2_000)
    expect(hook.got).toEqual([])
    rmdirSync(journal)
    await waitUntil(() => hook.got.length > 0, 'the fire once the files read', 20_000)
    await sleep(1_500)
    expect(hook.got.map((g) => g.ruleId)).toEqual([ids.get('BTCUSDT')])
    expect(ownerPid(dir)).toBe(r.child.pid)
  }, 90_000)
})

describe('three takers at once', () => {
  it('leave one owner each round, as the winner is killed twice; each crossing reaches the webhook once', async () => {
    const takers = [runner(), runner(), runner()]
    const order = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'] as const
    for (const [round, symbol] of order.entries()) {
      const alive = takers.filter((t) => t.child.exitCode === null && t.child.signalCode === null)
      await waitUntil(
        () => alive.some((t) => ownerPid(dir) === t.child.pid),
        `round ${round}: one of ${alive.length} to hold the lease`,
      )
      const owner = alive.find((t) => ownerPid(dir) === t.child.pid)!
      const others = alive.filter((t) => t !== owner)
      // Each other taker says it stands by once it has looked at the lease: waited on, not
      // timed (on a loaded machine a taker started with the others may not have looked yet).
      for (const o of others)
        await waitUntil(
          () => /alerts are run by `tickdesk alerts run`/i.test(o.stderr()),
          `round ${round}: taker ${o.child.pid} to stand by`,
        )
      await sleep(1_500) // every taker has looked again since: a second owner would show by now
      expect(ownerPid(dir)).toBe(owner.child.pid)
      levelCrosser(sim).cross(symbol, LEVEL[symbol] * 2)
      await waitUntil(() => hook.of(ids.get(symbol)!).length > 0, `${symbol} delivered`)
      await sleep(1_000)
      expect(hook.of(ids.get(symbol)!)).toHaveLength(1)
      expect(others.every((o) => o.alerts.length === 0)).toBe(true)
      owner.child.kill('SIGKILL')
      await owner.exited
    }
    expect(hook.got.map((g) => [g.ruleId, g.replayed])).toEqual(
      order.map((s) => [ids.get(s), false]),
    )
    // One claim per epoch: three take-overs, three epochs, no epoch claimed twice.
    const claims = readdirSync(dir).filter((n) => n.startsWith('alerts.claim.'))
    expect(claims.length).toBeLessThanOrEqual(3)
    unlinkSync(join(dir, 'alerts.lease'))
  }, 120_000)
})

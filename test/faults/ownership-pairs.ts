import { expect } from 'vitest'
import { startSimulator } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser } from './once-alerts'
import {
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
 * Two processes on one data folder, started in a given order, then the first restarted (a clean
 * stop, started again) while the second runs: the app service, the browser host, `alerts run` and
 * `watch` (a viewer), every pair in both orders. A crossing before the restart and one after it
 * must each reach the webhook exactly once (never a repeat, not even a marked one: nobody was
 * killed), within 5 s of the crossing; the owner is the process the folder's lease names, and
 * it is always a full owner (a viewer never holds the folder); a viewer and an app standing by
 * show each fire.
 */

export const PAIR_KINDS: Kind[] = ['app', 'web', 'run', 'watch']
const FULL: ReadonlySet<Kind> = new Set(['app', 'web', 'run'])
/** The target: a crossing reaches every webhook within this, while an owner runs. */
export const DELIVERY_MS = 5_000

export function orderedPairs(): [Kind, Kind][] {
  const out: [Kind, Kind][] = []
  for (const a of PAIR_KINDS) for (const b of PAIR_KINDS) if (a !== b) out.push([a, b])
  return out
}

export async function walkPair(first: Kind, second: Kind, seed: number): Promise<void> {
  const sim = await startSimulator({ port: 0, seed })
  const dir = tempDir()
  const { cross, release } = levelCrosser(sim)
  release()
  const ids = await addOnceAlerts(
    dir,
    'pair',
    { BTCUSDT: LEVEL.BTCUSDT * 2, ETHUSDT: LEVEL.ETHUSDT * 2 },
    sim,
  )
  const hook = await webhookReceiver(dir)
  const procs: Proc[] = []
  const start = async (kind: Kind): Promise<Proc> => {
    const p = await startProc(kind, sim, dir)
    procs.push(p)
    await p.ready
    return p
  }
  try {
    let a = await start(first)
    const b = await start(second)
    await expectOwner(dir, [FULL.has(first) ? a : b])
    const standby = FULL.has(first) ? b : a
    await waitUntil(
      async () => /alerts are run by|shows the fires/i.test(await standby.said()),
      `${standby.kind} to say who runs the alerts`,
    )
    const before = await crossing(
      hook,
      () => cross('BTCUSDT', LEVEL.BTCUSDT * 2),
      ids.get('BTCUSDT'),
    )
    await a.stop()
    a = await start(first)
    // Whichever full owner got there first: the one that stood by, or the one restarted.
    await expectOwner(
      dir,
      [a, b].filter((p) => FULL.has(p.kind)),
    )
    const after = await crossing(
      hook,
      () => cross('ETHUSDT', LEVEL.ETHUSDT * 2),
      ids.get('ETHUSDT'),
    )
    await sleep(1_500) // room for a second delivery to show
    expect(hook.got.map((g) => [g.ruleId, g.replayed])).toEqual([
      [ids.get('BTCUSDT'), false],
      [ids.get('ETHUSDT'), false],
    ])
    // Whoever does not run the alerts shows the fires all the same: the viewer prints them, an
    // app standing by has them in its panel's history (`alerts run` standing by prints none: its
    // stdout is a target, not a view).
    for (const p of [a, b].filter((x) => x.kind !== 'run'))
      await waitUntil(
        async () => (await p.shown()).includes(hook.got[1]!.id),
        `${p.kind} to show the fire`,
        10_000,
      )
    console.log(
      `ownership pair ${first} then ${second}: delivered ${before} ms and ${after} ms after the crossings`,
    )
    reportFigure('ownership pair', { first, second, delivered: [before, after] })
  } finally {
    release()
    for (const p of procs) await p.stop()
    await hook.close()
    await sim.close()
  }
}

/** The lease names one of `owners` (the app service runs in this process: its pid is this one's). */
async function expectOwner(dir: string, owners: Proc[]): Promise<void> {
  const pids = owners.map((p) => p.pid ?? process.pid)
  const who = owners.map((p) => p.kind).join(' or ')
  await waitUntil(() => pids.includes(ownerPid(dir) ?? -1), `${who} to hold the lease`, 15_000)
}

/** Crosses a level and waits for its fire at the receiver: ms from the crossing to the POST. */
async function crossing(
  hook: Receiver,
  doCross: () => void,
  ruleId: string | undefined,
): Promise<number> {
  const at = Date.now()
  doCross()
  await waitUntil(() => hook.of(ruleId ?? '').length > 0, `the fire of ${ruleId}`, 20_000)
  const ms = (hook.of(ruleId ?? '')[0]?.at ?? Infinity) - at
  expect(ms, `delivered ${ms} ms after the crossing`).toBeLessThan(DELIVERY_MS)
  return ms
}

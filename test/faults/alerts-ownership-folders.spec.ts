import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../src/core/persistence/stores'
import { fillDisk, tmpfsDisk, type Disk } from '../../src/core/testing/disks'
import { SettingsSchema } from '../../src/shared/settings'
import { startSimulator, type SimServer } from '../../src/sim'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser, startCli, type CliRun } from './once-alerts'
import {
  ownerPid,
  sleep,
  startProc,
  waitUntil,
  webhookReceiver,
  type Proc,
  type Receiver,
} from './ownership-rig'

/**
 * Folders that cannot hold a lease, and a process on the wrong service, with real processes:
 * a full disk and a read-only one (a real tmpfs: root needed, skipped elsewhere), where the
 * alerts still run and are announced, unrecorded, and say why; and a CLI in demo mode (a plain
 * shell: no key in the environment) beside the trader's real rules, which it neither judges nor
 * delivers: 0 deliveries to the real webhook.
 */

let sim: SimServer
let hook: Receiver | null = null
const mounted: Disk[] = []
const started: { stop(): Promise<void> }[] = []
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 91 })
  levelCrosser(sim).release()
})
afterEach(async () => {
  levelCrosser(sim).release()
  for (const p of started.splice(0)) await p.stop()
  await hook?.close()
  hook = null
  for (const d of mounted.splice(0)) d.unmount()
  await sim.close()
})

const canMount = ((): boolean => {
  const d = tmpfsDisk(64)
  d?.unmount()
  return d !== null
})()

function runner(dir: string, env: Record<string, string> = {}): CliRun {
  const r = startCli(sim, dir, ['alerts', 'run', '--json'], env)
  started.push({
    stop: async () => {
      r.child.kill('SIGTERM')
      await r.exited
    },
  })
  return r
}

/** A folder with a once-alert on BTC at twice its price and the webhook receiver, on `disk`. */
async function prepare(dir: string): Promise<string> {
  const ids = await addOnceAlerts(dir, 'disk', { BTCUSDT: LEVEL.BTCUSDT * 2 }, sim)
  hook = await webhookReceiver(dir)
  return ids.get('BTCUSDT')!
}

function mount(disk: Disk | null): string {
  if (disk === null) throw new Error('mount refused')
  mounted.push(disk)
  return disk.dir
}

describe.runIf(canMount)('a folder that cannot hold a lease', () => {
  it('full from the start: runs the alerts alone, announces the fire unrecorded, and says why', async () => {
    const dir = mount(tmpfsDisk(256))
    const rule = await prepare(dir)
    fillDisk(dir)
    const r = runner(dir)
    await r.waitFor(
      () => /cannot hold the alerts lease \(the disk is full\)/i.test(r.stderr()),
      'the words',
    )
    await r.waitFor(() => r.stderr().includes('feed live'), 'the runner live')
    levelCrosser(sim).cross('BTCUSDT', LEVEL.BTCUSDT * 2)
    await waitUntil(() => (hook?.got.length ?? 0) > 0, 'the fire', 15_000)
    expect(hook!.of(rule)).toHaveLength(1)
    expect(r.stderr()).toMatch(/announced but not recorded: the disk is full/)
  }, 90_000)

  it('filling while an owner runs: the owner keeps its lease, a second process stands by, one delivery', async () => {
    const dir = mount(tmpfsDisk(512))
    const rule = await prepare(dir)
    const a = runner(dir)
    await waitUntil(() => ownerPid(dir) === a.child.pid, 'the owner')
    fillDisk(dir)
    const b = runner(dir)
    await b.waitFor(() => /alerts are run by/i.test(b.stderr()), 'the second to stand by')
    await sleep(2_000)
    expect(ownerPid(dir)).toBe(a.child.pid)
    levelCrosser(sim).cross('BTCUSDT', LEVEL.BTCUSDT * 2)
    await waitUntil(() => (hook?.got.length ?? 0) > 0, 'the fire', 15_000)
    await sleep(2_000)
    expect(hook!.of(rule).map((g) => g.replayed)).toEqual([false])
    expect(b.alerts).toEqual([])
  }, 90_000)

  it('read-only: runs the alerts alone, announces the fire unrecorded, and says why', async () => {
    const src = tempDir()
    const rule = await prepare(src)
    // The folder as the trader left it, on a disk that is now read-only.
    const dir = mount(
      tmpfsDisk(256, {
        readOnly: true,
        fill: (d) => {
          for (const name of ['alerts.json', 'webhooks.json'])
            copyFileSync(join(src, name), join(d, name))
        },
      }),
    )
    const r = runner(dir)
    await r.waitFor(
      () =>
        /cannot hold the alerts lease \(the data folder is on a read-only disk\)/i.test(r.stderr()),
      'the words',
    )
    await r.waitFor(() => r.stderr().includes('feed live'), 'the runner live')
    levelCrosser(sim).cross('BTCUSDT', LEVEL.BTCUSDT * 2)
    await waitUntil(() => (hook?.got.length ?? 0) > 0, 'the fire', 15_000)
    await sleep(6_000) // past a look again at the lease: the once-alert fires no second time
    expect(hook!.of(rule)).toHaveLength(1)
  }, 90_000)
})

/** A plain shell on the trader's machine: no service in the environment, no key. */
const PLAIN_SHELL = { TICKDESK_BASE_URL: '', TICKDESK_API_KEY: '', TICKDESK_PLAN: '' }

describe("a CLI in demo mode beside the trader's real rules", () => {
  async function realFolder(): Promise<{ dir: string; rule: string }> {
    const dir = tempDir()
    // The app's settings name the service its rules were made for; the key is in the app only.
    await openDataStores(dir).settings.save(
      SettingsSchema.parse({ baseUrl: `http://127.0.0.1:${sim.port}` }),
    )
    // Met by the demo's prices at once (83,600): a rule judged on them would fire at its first quote.
    const ids = await addOnceAlerts(
      dir,
      'real',
      { BTCUSDT: 1_000, ETHUSDT: LEVEL.ETHUSDT * 2 },
      sim,
    )
    hook = await webhookReceiver(dir)
    return { dir, rule: ids.get('ETHUSDT')! }
  }

  it('alone: says it runs on demo prices and why, runs none of the real rules, delivers nothing', async () => {
    const { dir } = await realFolder()
    const r = runner(dir, PLAIN_SHELL)
    await r.waitFor(() => r.stderr().includes('feed live'), 'the demo runner live')
    expect(r.stderr()).toMatch(
      /Demo mode: .*the app's service http:\/\/127\.0\.0\.1:\d+ has no key here/,
    )
    expect(r.stderr()).toMatch(
      /belong to 127\.0\.0\.1:\d+ \(profile tickdesk-faults\).*runs none of them/,
    )
    await sleep(6_000)
    expect(hook!.got).toEqual([])
    expect(r.alerts).toEqual([])
    expect(ownerPid(dir)).not.toBe(r.child.pid)
  }, 90_000)

  it('beside the app: the app runs them, each crossing reaches the webhook once, the demo CLI adds nothing', async () => {
    const { dir, rule } = await realFolder()
    const app: Proc = await startProc('app', sim, dir)
    started.push(app)
    const demo = startCli(
      sim,
      dir,
      ['watch', '--json', '--run-alerts', 'crypto:BTCUSDT'],
      PLAIN_SHELL,
    )
    started.push({
      stop: async () => {
        demo.child.kill('SIGTERM')
        await demo.exited
      },
    })
    await demo.waitFor(() => demo.quotes.size > 0, 'the demo watch')
    await waitUntil(() => ownerPid(dir) === process.pid, 'the app to hold the lease')
    await waitUntil(() => (hook?.got.length ?? 0) === 1, 'the BTC fire (met at once)', 15_000)
    levelCrosser(sim).cross('ETHUSDT', LEVEL.ETHUSDT * 2)
    await waitUntil(() => hook!.of(rule).length === 1, 'the ETH fire', 15_000)
    await sleep(3_000)
    expect(hook!.got.map((g) => g.replayed)).toEqual([false, false])
    expect(demo.alerts).toEqual([])
    expect(demo.stderr()).toMatch(/belong to 127\.0\.0\.1:\d+/)
  }, 90_000)
})

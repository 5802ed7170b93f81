import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { AlertRuleState, FiredAlert } from '../../src/shared/alerts/alert'
import type { Snapshot } from '../../src/shared/bridge'
import type { SimServer } from '../../src/sim'
import { DEMO_KEYS } from '../../src/sim/plans-and-keys'
import { connectBridge } from '../e2e/bridge-client'
import { printedAddress } from '../e2e/launch'
import { TEST_PROFILE } from './once-alerts'

/**
 * `tickdesk web` (the app service the Electron host also runs) as the alert tests drive it: the
 * real process against the simulator on loopback, with one page's view of the bridge read from
 * outside: the alertFired events (the page's toasts) and the alert history the page holds (its
 * snapshot, then each `alerts` event), which is how a page learns of a fire delivered while it
 * was not connected.
 */

const BIN = fileURLToPath(new URL('../../bin/tickdesk.js', import.meta.url))

export interface WebHost {
  child: ChildProcess
  /** alertFired events the page's bridge received, in order. */
  announced: FiredAlert[]
  /** The alert history the page holds now (empty until its snapshot came). */
  history: FiredAlert[]
  exited: Promise<void>
  /** The host's rule states, asked of it now (getSnapshot). */
  states(): Promise<AlertRuleState[]>
  /** The page's snapshot, asked now (null once the bridge closed). */
  snapshot(): Promise<Snapshot | null>
  stop(): Promise<void>
}

export async function startWebHost(
  sim: SimServer,
  dir: string,
  env: Record<string, string> = {},
): Promise<WebHost> {
  const child = spawn(process.execPath, [BIN, 'web', '--port', '0'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BROWSER: 'none',
      TICKDESK_BASE_URL: `http://127.0.0.1:${sim.port}`,
      TICKDESK_API_KEY: DEMO_KEYS.pro,
      TICKDESK_PLAN: 'pro',
      TICKDESK_DATA_DIR: dir,
      TICKDESK_PROFILE: TEST_PROFILE,
      DBUS_SESSION_BUS_ADDRESS: '',
      DISPLAY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const { url } = await printedAddress(child, 'tickdesk web')
  // A page's view of the bridge: the one bridge client, on the printed launch address.
  const bridge = await connectBridge(url)
  const snapshot = async (): Promise<Snapshot | null> => {
    if (bridge.connection !== 'open') return null
    const outcome = await bridge.invoke('getSnapshot', {})
    return outcome.ok ? (outcome.result as Snapshot) : null
  }
  const host: WebHost = {
    child,
    announced: [],
    history: [],
    exited,
    states: async () => (await snapshot())?.alertStates ?? [],
    snapshot: () => snapshot(),
    stop: async () => {
      bridge.close()
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
  bridge.subscribe((event) => {
    if (event.type === 'alertFired') host.announced.push(event.alert)
    if (event.type === 'alerts') host.history = event.alertHistory
  })
  // The page's first request, as the renderer's: its history until an `alerts` event.
  const first = await snapshot()
  if (first !== null) host.history = first.alertHistory
  return host
}

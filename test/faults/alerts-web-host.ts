import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import type { AlertRuleState, FiredAlert } from '../../src/shared/alerts/alert'
import type { Snapshot, WebFrame } from '../../src/shared/bridge'
import type { SimServer } from '../../src/sim'
import { DEMO_KEYS } from '../../src/sim/plans-and-keys'
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
  // A page's view of the bridge: same origin, the printed token.
  const u = new URL(url)
  const socket = new WebSocket(`ws://${u.host}/bridge${u.search}`, {
    headers: { origin: `http://${u.host}` },
  })
  let nextId = 1
  const pending = new Map<number, (s: Snapshot | null) => void>()
  const host: WebHost = {
    child,
    announced: [],
    history: [],
    exited,
    states: async () => (await snapshot())?.alertStates ?? [],
    snapshot: () => snapshot(),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
  const snapshot = (): Promise<Snapshot | null> =>
    new Promise((resolve) => {
      if (socket.readyState !== WebSocket.OPEN) return resolve(null)
      const id = nextId++
      pending.set(id, resolve)
      socket.send(JSON.stringify({ id, command: 'getSnapshot', params: {} }))
    })
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as WebFrame
    if (frame.kind === 'response') {
      const answer = pending.get(frame.id)
      pending.delete(frame.id)
      const snap = frame.outcome.ok ? (frame.outcome.result as Snapshot) : null
      if (snap !== null && frame.id === 1) host.history = snap.alertHistory
      answer?.(snap)
      return
    }
    if (frame.event.type === 'alertFired') host.announced.push(frame.event.alert)
    if (frame.event.type === 'alerts') host.history = frame.event.alertHistory
  })
  socket.on('error', () => undefined)
  socket.on('close', () => {
    for (const answer of pending.values()) answer(null)
    pending.clear()
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  // The page's first request, as the renderer's: its history until an `alerts` event.
  await snapshot()
  return host
}

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAppService, type AppService } from '../../src/app/app-service'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import { readLease, type Lease } from '../../src/core/persistence/lease-file'
import { openDataStores } from '../../src/core/persistence/stores'
import type { AlertOwnerView } from '../../src/shared/alerts/alert-owner'
import type { Snapshot } from '../../src/shared/bridge'
import type { SimServer } from '../../src/sim'
import { DEMO_KEYS } from '../../src/sim/plans-and-keys'
import { startWebHost, type WebHost } from './alerts-web-host'
import { startCli, TEST_PROFILE, type CliRun } from './once-alerts'

/**
 * The processes a trader runs on one data folder, started the way they start for real, for the
 * ownership walks: the app service in this process ("app"), the browser host (`tickdesk web`,
 * "web"), `tickdesk alerts run` ("run"), `tickdesk watch` (a viewer, "watch") and `tickdesk watch
 * --run-alerts` ("watch-run"). Who runs the folder's alerts is read from the folder itself (its
 * lease), the way any other process reads it; deliveries are counted by a webhook receiver on
 * 127.0.0.1, each with the moment it arrived.
 */

export type Kind = 'app' | 'web' | 'run' | 'watch' | 'watch-run'

export interface Proc {
  kind: Kind
  /** The OS process (null for the app service in this process: it cannot be stopped alone). */
  pid: number | null
  /** What it said of who runs the alerts (stderr, or the app's notices and panel line). */
  said(): Promise<string>
  /** The fire ids it shows (a viewer's lines; the app's history, whoever fired them). */
  shown(): Promise<string[]>
  /** The fire ids it announced to its own targets (stdout lines of a runner, the app's toasts). */
  announced(): string[]
  /** Resolves once it is up: the feed live (a CLI), the service started (the app, the web host). */
  ready: Promise<void>
  signal(sig: NodeJS.Signals): void
  /** A clean stop (SIGTERM; the app: close()). */
  stop(): Promise<void>
  exited: Promise<void>
}

export const SYMBOLS_USED = ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'crypto:SOLUSDT'] as const

export async function startProc(
  kind: Kind,
  sim: SimServer,
  dir: string,
  env: Record<string, string> = {},
): Promise<Proc> {
  if (kind === 'app') return appProc(sim, dir, env)
  if (kind === 'web') return webProc(await startWebHost(sim, dir, env))
  const args =
    kind === 'run'
      ? ['alerts', 'run', '--json']
      : ['watch', '--json', ...(kind === 'watch-run' ? ['--run-alerts'] : []), ...SYMBOLS_USED]
  return cliProc(kind, startCli(sim, dir, args, env))
}

async function appProc(sim: SimServer, dir: string, env: Record<string, string>): Promise<Proc> {
  const app: AppService = await createAppService({
    dataDir: dir,
    env: {
      TICKDESK_BASE_URL: `http://127.0.0.1:${sim.port}`,
      TICKDESK_API_KEY: DEMO_KEYS.pro,
      TICKDESK_PLAN: 'pro',
      TICKDESK_PROFILE: TEST_PROFILE,
      ...env,
    },
    secretStore: memorySecretStore(),
    demo: () => Promise.reject(new Error('no demo here')),
  })
  const announced: string[] = []
  app.subscribe((e) => void (e.type === 'alertFired' && announced.push(e.alert.id)))
  app.announceOwedAlerts()
  let closed: Promise<void> | null = null
  const snap = async (): Promise<Snapshot> =>
    ((await app.invoke('getSnapshot', {})) as { ok: true; result: Snapshot }).result
  return {
    kind: 'app',
    pid: null,
    ready: Promise.resolve(),
    said: async () => ownerWords((await snap()).alertOwner),
    shown: async () => (await snap()).alertHistory.map((a) => a.id),
    announced: () => announced,
    signal: () => {
      throw new Error('the app service runs in this process: it cannot be signalled alone')
    },
    stop: () => (closed ??= app.close()),
    get exited(): Promise<void> {
      return closed ?? new Promise(() => undefined)
    },
  }
}

function webProc(host: WebHost): Proc {
  return {
    kind: 'web',
    pid: host.child.pid ?? null,
    ready: Promise.resolve(),
    said: async () => ownerWords((await host.snapshot())?.alertOwner),
    shown: async () => host.history.map((a) => a.id),
    announced: () => host.announced.map((a) => a.id),
    signal: (sig) => void host.child.kill(sig),
    stop: () => host.stop(),
    exited: host.exited,
  }
}

function cliProc(kind: Kind, run: CliRun): Proc {
  return {
    kind,
    pid: run.child.pid ?? null,
    ready:
      kind === 'run'
        ? run.waitFor(() => run.stderr().includes('feed live'), 'the runner live')
        : run.waitFor(() => run.quotes.size > 0, 'watch quotes'),
    said: async () => run.stderr(),
    shown: async () => run.alerts.map((a) => a.id),
    announced: () => (kind === 'watch' ? [] : run.alerts.map((a) => a.id)),
    signal: (sig) => void run.child.kill(sig),
    stop: async () => {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM')
      await run.exited
    },
    exited: run.exited,
  }
}

function ownerWords(owner: AlertOwnerView | undefined): string {
  return owner === undefined ? '' : `${owner.state}: ${owner.words}`
}

/** The lease as the folder holds it now: who runs the alerts (null: nobody ever did). */
export function leaseOf(dir: string): Lease | null {
  const text = readLease(dir)
  return text.kind === 'lease' ? text.lease : null
}

/** The process the lease names, if it holds it (not given back). */
export function ownerPid(dir: string): number | null {
  const lease = leaseOf(dir)
  return lease === null || lease.released === true ? null : lease.pid
}

/** A webhook receiver on 127.0.0.1, registered in the folder's webhooks.json as w1. */
export interface Receiver {
  /** The POSTs it took (answered 2xx), in the order they came. */
  got: { id: string; ruleId: string; replayed: boolean; late: boolean; at: number }[]
  /** POSTs it refused (answered 500 while `refusing`). */
  refused: number
  /** While true, every POST is answered 500: a receiver that is down. */
  refusing: boolean
  /** The POSTs of one rule's fires it took, in the order they came. */
  of(ruleId: string): Receiver['got']
  close(): Promise<void>
}

export async function webhookReceiver(dir: string): Promise<Receiver> {
  const got: Receiver['got'] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      if (receiver.refusing) {
        receiver.refused++
        res.writeHead(500).end()
        return
      }
      const fire = JSON.parse(body) as {
        id: string
        ruleId: string
        replayed?: boolean
        late?: boolean
      }
      got.push({
        id: fire.id,
        ruleId: fire.ruleId,
        replayed: fire.replayed === true,
        late: fire.late === true,
        at: Date.now(),
      })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
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
  const receiver: Receiver = {
    got,
    refused: 0,
    refusing: false,
    of: (ruleId) => got.filter((g) => g.ruleId === ruleId),
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
  return receiver
}

/** Polls `pred` every 50 ms (real time) until it holds, or fails with what it waited for. */
export async function waitUntil(
  pred: () => boolean | Promise<boolean>,
  what: string,
  ms = 30_000,
): Promise<void> {
  const started = Date.now()
  for (;;) {
    if (await pred()) return
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { memorySecretStore, type AppService } from '../../src/app'
import { openHostLog } from '../../src/app/logs/host-log'
import { startDemoService, startSimulator, type SimServer, type SimOptions } from '../../src/sim'
import { rendererDir, startBrowserHost, type BrowserHost, type WebHost } from '../../src/web'

export interface HostUnderTest {
  /** A fresh one-time launch address of the desk; a restart gives it another port. */
  readonly url: string
  sim: SimServer
  app: AppService
  host: WebHost
  dataDir: string
  restart(): Promise<void>
  close(): Promise<void>
}

/**
 * The browser host wired to a simulator the test controls (so it can take the service down and
 * bring it back), exactly as `tickdesk web` wires it to a configured service.
 */
export async function startHostUnderTest(
  opts: {
    sim?: SimOptions
    dataDir?: string
    /** Which simulator key the app uses (default: pro), e.g. (k) => k.cryptoOnly. */
    key?: (keys: SimServer['keys']) => string
    /** Another service instead of the simulator (test/e2e/fixed-quote-service.ts), and its key. */
    service?: { url: string; key: string }
    plan?: 'free' | 'pro'
  } = {},
): Promise<HostUnderTest> {
  const sim = await startSimulator({ seed: 7, tickIntervalMs: 200, ...opts.sim })
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'tickdesk-flow-'))
  const env = { TICKDESK_BASE_URL: opts.service?.url ?? sim.url, TICKDESK_PLAN: opts.plan ?? 'pro' }
  const apiKey = opts.service?.key ?? (opts.key ? opts.key(sim.keys) : sim.keys.pro)
  // `tickdesk web`'s own start-up (src/web/browser-host.ts), with the test's service and key.
  const open = async (): Promise<BrowserHost & { app: AppService; closeLog(): Promise<void> }> => {
    const log = openHostLog({ dataDir, host: 'web' })
    const started = await startBrowserHost({
      dataDir,
      env,
      secretStore: memorySecretStore(apiKey),
      demo: () => startDemoService(),
      logger: log.logger,
      logFolder: { path: log.dir, open: async () => false },
      rendererDir: rendererDir(),
    })
    // The flows drive a started service: tests read its quotes and lists from here.
    return { ...started, app: await started.ready, closeLog: () => log.close() }
  }
  let current = await open()
  return {
    sim,
    dataDir,
    get app() {
      return current.app
    },
    get host() {
      return current.host
    },
    /** A fresh one-time launch address at each read (each works for one visit). */
    get url() {
      return current.host.launchUrl()
    },
    async restart() {
      await current.close()
      await current.closeLog()
      current = await open()
    },
    async close() {
      await current.close()
      await current.closeLog()
      await sim.close()
    },
  }
}

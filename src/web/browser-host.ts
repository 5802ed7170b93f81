import type { AppServiceOptions } from '../app/host-api'
import { beginHostedApp, type HostedApp } from '../app/hosted-app'
import type { AppService } from '../app/app-service'
import type { Logger } from '../core/log'
import { startWebHost, type WebHost } from './web-host'

/**
 * The browser host's start-up, written once for `tickdesk web` and the e2e harness
 * (test/e2e/in-process-host.ts). The page server listens at once, beside the hosted app service's
 * start (src/app/hosted-app.ts, shared with the Electron host): a page asked for meanwhile gets
 * the cached picture the start read first (the files and the quote cache), and its bridge waits
 * until the service has started (web-host.ts), so the feed, the alerts and the stream are not on
 * the way to the first paint. Owed alerts are announced once the service has started. Closing
 * stops the server first, then the service (once its start is over): no page talks to a closed
 * service.
 */
export interface BrowserHost {
  readonly host: WebHost
  /**
   * The service, once fully started. Rejects when it cannot start; the server is closed by then,
   * and `close` has nothing left to do.
   */
  readonly ready: Promise<AppService>
  close(): Promise<void>
}

export async function startBrowserHost(
  opts: AppServiceOptions & { logger: Logger; rendererDir: string; port?: number },
): Promise<BrowserHost> {
  const { rendererDir, port, ...appOptions } = opts
  const start = beginHostedApp(appOptions)
  // Whatever happens to the server, the start is awaited (and undone) before anything returns.
  const hosted: Promise<HostedApp | null> = start.hosted.catch(() => null)
  const closeService = async (): Promise<void> => {
    await (await hosted)?.close()
  }
  let host: WebHost
  try {
    host = await startWebHost({
      app: start.hosted.then((h) => h.app),
      cachedDesk: start.desk,
      rendererDir,
      port: port ?? 0,
    })
  } catch (error) {
    await closeService()
    throw error
  }
  const ready = start.hosted.then(
    ({ app }) => {
      app.announceOwedAlerts()
      return app
    },
    async (error: unknown) => {
      await host.close()
      throw error
    },
  )
  // Told through `ready`; a host that closes first must not see it as unhandled.
  ready.catch(() => {})
  return {
    host,
    ready,
    async close() {
      await host.close()
      await closeService()
    },
  }
}

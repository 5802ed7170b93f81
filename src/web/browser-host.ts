import type { AppServiceOptions } from '../app/host-api'
import { startHostedApp } from '../app/hosted-app'
import type { AppService } from '../app/app-service'
import type { Logger } from '../core/log'
import { startWebHost, type WebHost } from './web-host'

/**
 * The browser host's start-up, written once for `tickdesk web` and the e2e harness
 * (test/e2e/in-process-host.ts): the hosted app service (src/app/hosted-app.ts, shared with the
 * Electron host), owed alerts announced once its activity log listens, then the page server.
 * Closing stops them in the other order: no page talks to a closed service.
 */
export interface BrowserHost {
  readonly app: AppService
  readonly host: WebHost
  close(): Promise<void>
}

export async function startBrowserHost(
  opts: AppServiceOptions & { logger: Logger; rendererDir: string; port?: number },
): Promise<BrowserHost> {
  const { rendererDir, port, ...appOptions } = opts
  const hosted = await startHostedApp(appOptions)
  hosted.app.announceOwedAlerts()
  try {
    const host = await startWebHost({ app: hosted.app, rendererDir, port: port ?? 0 })
    return {
      app: hosted.app,
      host,
      async close() {
        await host.close()
        await hosted.close()
      },
    }
  } catch (error) {
    await hosted.close()
    throw error
  }
}

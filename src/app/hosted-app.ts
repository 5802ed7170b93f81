import { systemClock } from '../core/clock'
import type { Logger } from '../core/log'
import { createAppService, type AppService } from './app-service'
import type { AppServiceOptions } from './host-api'
import { logAppActivity } from './logs/app-activity-log'

/**
 * The app service as a long-running host starts it, written once for the Electron host (injected
 * by src/main/index.ts), the browser host (`tickdesk web`, src/web/browser-host.ts) and the e2e
 * harness (test/e2e/in-process-host.ts): the service, its activity in the host's log, and a close
 * that stops both. Announcing owed alerts is left to the host: it must listen first (the
 * Electron notifier, a browser page), so it calls `app.announceOwedAlerts()` when it does.
 */
export interface HostedApp {
  readonly app: AppService
  /** Closes the service (bounded when `withinMs` is given), then stops the activity log. */
  close(withinMs?: number): Promise<void>
}

export async function startHostedApp(
  opts: AppServiceOptions & { logger: Logger },
): Promise<HostedApp> {
  const app = await createAppService(opts)
  const stopActivityLog = logAppActivity(app, opts.logger)
  const clock = opts.clock ?? systemClock
  return {
    app,
    async close(withinMs) {
      try {
        if (withinMs === undefined) await app.close()
        else
          await Promise.race([
            app.close(),
            new Promise<void>((done) => clock.setTimeout(done, withinMs)),
          ])
      } finally {
        stopActivityLog()
      }
    },
  }
}

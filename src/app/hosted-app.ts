import { systemClock } from '../core/clock'
import type { Logger } from '../core/log'
import { createAppService, type AppService } from './app-service'
import type { AppServiceOptions } from './host-api'
import { logAppActivity } from './logs/app-activity-log'
import type { CachedDesk } from './watchlists/cached-desk'

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

/**
 * A start a host may serve from before it is over (the browser host: its page and the cached
 * picture first, the bridge once the service has started). Nothing of the service is reachable
 * until `hosted` resolves: the picture is a copy of what the start read, not the service.
 */
export interface HostedAppStart {
  /** The active list's cached picture, once the files and the quote cache are read; null: none. */
  readonly desk: Promise<CachedDesk | null>
  /** The hosted app, fully started (feed, alerts, outside edits); rejects as startHostedApp. */
  readonly hosted: Promise<HostedApp>
}

export function beginHostedApp(opts: AppServiceOptions & { logger: Logger }): HostedAppStart {
  let told: (desk: CachedDesk | null) => void = () => {}
  const desk = new Promise<CachedDesk | null>((resolve) => (told = resolve))
  const hosted = startHostedApp({
    ...opts,
    onCachedDesk: (picture) => {
      opts.onCachedDesk?.(picture)
      told(picture)
    },
  })
  // A start that fails before its first reads has no picture to draw.
  hosted.catch(() => told(null))
  return { desk, hosted }
}

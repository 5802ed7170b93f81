import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { findChromium, launchChromium } from './chromium'
import { chromiumForFile } from './chromium-server'
import { startHostUnderTest, type HostUnderTest } from './in-process-host'

/**
 * The one set-up of every Chromium spec: something serving the desk (by default the browser host on
 * the simulator, in process), a browser context with the spec's options and init scripts, and one
 * page on the desk once it is ready. Second pages (another tab, the strip, a fresh start after a
 * restart) come from `openPage`, in the same context or a new one, and are closed with the rest.
 * The browser is the worker's shared Chromium when the e2e project's global set-up started one
 * (test/e2e/chromium-server.ts), so a spec costs a context, not a browser launch.
 */

/** What serves the desk: its tokened address (may change on a restart) and how to stop it. */
export interface Served {
  readonly url: string
  close(): Promise<void>
}

export interface DeskOptions {
  /** Options of the desk's browser context: viewport, permissions, acceptDownloads... */
  context?: BrowserContextOptions
  /** Scripts run in every page of the context before the page's own (addInitScript). */
  initScripts?: string[]
  /** Runs on the first page before it loads (to listen to its socket or set its clock, say). */
  beforeLoad?: (page: Page) => unknown
  /**
   * When the first page counts as open; default: the connection state shows. `false`: the first
   * page stays blank (a spec that opens its own pages).
   */
  ready?: ((page: Page) => Promise<unknown>) | false
  /**
   * 'own': launch a Chromium for this file instead of connecting to the shared one. Needed to read
   * a download's path (Playwright keeps downloads on the browser's side of a remote connection).
   */
  browser?: 'shared' | 'own' | 'full'
}

/**
 * 'full': the full Chromium browser of this file's own (findChromium), for what the headless shell
 * the flows share lacks: the browser's permission service, which Web Notifications need.
 */
const fullChromium = (): Promise<Browser> => {
  const path = findChromium()
  if (!path) throw new Error('No full Chromium found (apt-get install chromium)')
  return launchChromium(path)
}

export interface DeskInChromium<S extends Served = HostUnderTest> {
  env: S
  browser: Browser
  context: BrowserContext
  page: Page
  /** The desk's address with another path: `deskUrl('/strip')`. */
  deskUrl(path?: string): string
  /**
   * Another page on the desk (or on `url`): in the desk's context unless `context` options are given,
   * which open it in a fresh context (its own storage and permissions). Not navigated when `url` is
   * null. Waits for nothing beyond the load.
   */
  openPage(opts?: {
    path?: string
    url?: string | null
    viewport?: { width: number; height: number }
    context?: BrowserContextOptions
  }): Promise<Page>
  /** Closes the pages and contexts, the browser (or this file's connection to it), then the server. */
  close(): Promise<void>
}

const connectionShown = (page: Page): Promise<unknown> =>
  page.getByTestId('connection-state').waitFor({ timeout: 20_000 })

export function openDeskInChromium(
  chromiumPath: string,
  opts?: DeskOptions & { host?: Parameters<typeof startHostUnderTest>[0] },
): Promise<DeskInChromium>
export function openDeskInChromium<S extends Served>(
  chromiumPath: string,
  opts: DeskOptions & { serve: () => Promise<S> },
): Promise<DeskInChromium<S>>
export async function openDeskInChromium(
  chromiumPath: string,
  opts: DeskOptions & {
    host?: Parameters<typeof startHostUnderTest>[0]
    serve?: () => Promise<Served>
  } = {},
): Promise<DeskInChromium<Served>> {
  const env = await (opts.serve ? opts.serve() : startHostUnderTest(opts.host))
  let browser: Browser | null = null
  try {
    browser = await (opts.browser === 'own'
      ? launchChromium(chromiumPath)
      : opts.browser === 'full'
        ? fullChromium()
        : chromiumForFile(chromiumPath))
    const opened = browser
    const context = await opened.newContext(opts.context)
    for (const script of opts.initScripts ?? []) await context.addInitScript(script)
    const others: BrowserContext[] = []
    const deskUrl = (path = '/'): string => {
      const url = new URL(env.url)
      url.pathname = path
      return url.toString()
    }
    const page = await context.newPage()
    await opts.beforeLoad?.(page)
    if (opts.ready !== false) {
      await page.goto(env.url)
      await (opts.ready ?? connectionShown)(page)
    }
    return {
      env,
      browser: opened,
      context,
      page,
      deskUrl,
      openPage: async ({ path, url, viewport, context: fresh } = {}) => {
        let inContext = context
        if (fresh) {
          inContext = await opened.newContext(fresh)
          for (const script of opts.initScripts ?? []) await inContext.addInitScript(script)
          others.push(inContext)
        }
        const next = await inContext.newPage()
        if (viewport) await next.setViewportSize(viewport)
        if (url !== null) await next.goto(url ?? deskUrl(path))
        return next
      },
      close: async () => {
        for (const c of others) await c.close().catch(() => undefined)
        await context.close().catch(() => undefined)
        await opened.close()
        await env.close()
      },
    }
  } catch (err) {
    await browser?.close()
    await env.close()
    throw err
  }
}

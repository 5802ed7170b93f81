import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { launchChromium } from './chromium'
import { startHostUnderTest, type HostUnderTest } from './in-process-host'

export interface DeskInChromium {
  env: HostUnderTest
  browser: Browser
  page: Page
  /** Closes the browser, then the host and its simulator. */
  close(): Promise<void>
}

/**
 * The set-up most flows share: the browser host on the simulator, a Chromium, and one page on
 * the desk with its connection shown. `beforeLoad` runs on the page before it loads (to listen
 * to its socket, say). Whatever was started is closed again if a later step fails.
 */
export async function openDeskInChromium(
  chromiumPath: string,
  opts: {
    page?: BrowserContextOptions
    host?: Parameters<typeof startHostUnderTest>[0]
    beforeLoad?: (page: Page) => void
  } = {},
): Promise<DeskInChromium> {
  const env = await startHostUnderTest(opts.host)
  let browser: Browser | null = null
  try {
    browser = await launchChromium(chromiumPath)
    const page = await browser.newPage(opts.page)
    opts.beforeLoad?.(page)
    await page.goto(env.host.url)
    await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
    const opened = browser
    return {
      env,
      browser: opened,
      page,
      close: async () => {
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

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'
import { watchPage } from './page-watch'

const chromiumPath = chromiumOrSkip()

/** Records Web Notifications the page raises (a test-side stand-in for the OS showing them). */
const RECORD_NOTIFICATIONS = `
  const Native = window.Notification;
  window.__shown = [];
  class Recording extends Native {
    constructor(title, options) { super(title, options); window.__shown.push({ title, body: options && options.body, tag: options && options.tag }); }
  }
  window.Notification = Recording;
`

const width = (page: Page, selector: string): Promise<number> =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.getBoundingClientRect().width)

describe.skipIf(!chromiumPath)(
  'the desk: layout, icon, notifications (browser host, Chromium)',
  () => {
    let desk: DeskInChromium
    let env: HostUnderTest
    let page: Page
    let watch: ReturnType<typeof watchPage>

    beforeAll(async () => {
      desk = await openDeskInChromium(chromiumPath as string, {
        context: { viewport: { width: 1280, height: 800 }, permissions: ['notifications'] },
        browser: 'full', // Web Notifications need the full browser's permission service
        initScripts: [RECORD_NOTIFICATIONS],
        beforeLoad: (p) => (watch = watchPage(p)),
      })
      ;({ env, page } = desk)
      await page.locator('tbody tr[data-key] [data-field="last"]').first().waitFor()
    })

    afterAll(async () => {
      await desk?.close()
    })

    it('loads with no console error and the app icon as favicon (no /favicon.ico request)', async () => {
      // The first load's panels are fetched in an idle moment after it, which can come after
      // leaving(); the reload cancels them, and the watch lays that at the test (page-watch.spec).
      watch.leaving()
      await page.reload()
      await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
      await page.waitForTimeout(500)
      expect(watch.problems).toEqual([])
      expect(watch.requested.filter((u) => new URL(u).pathname === '/favicon.ico')).toEqual([])
      const href = await page.locator('link[rel="icon"]').getAttribute('href')
      const icon = await page.request.get(new URL(href ?? '', page.url()).href)
      expect(icon.status()).toBe(200)
      expect(icon.headers()['content-type']).toBe('image/svg+xml')
      expect(await icon.text()).toContain('rising price line')
    })

    it('keeps the watchlist actions in one menu beside the tabs, not seven buttons', async () => {
      const header = page.locator('header.top')
      for (const gone of ['New list', 'Rename', 'Export JSON', 'Export CSV', 'Import'])
        expect(await header.getByRole('button', { name: gone, exact: true }).count()).toBe(0)
      await header.getByRole('button', { name: 'Watchlist actions' }).press('Enter')
      const items = await page.getByRole('menu').getByRole('menuitem').allTextContents()
      expect(items).toEqual([
        'New list…',
        'Rename…',
        'Delete…',
        'Move left',
        'Move right',
        'Export JSON',
        'Export CSV',
        'Import JSON or CSV…',
      ])
      await page.keyboard.press('Escape')
    })

    it('gives the grid its width back when the alerts panel closes', async () => {
      // The grid's pane (the table is as wide as its columns, or its pane when that is wider).
      const closed = await width(page, 'main')
      await page.getByRole('button', { name: /^Alerts/ }).click()
      await page.getByTestId('alerts-panel').waitFor()
      const open = await width(page, 'main')
      expect(open).toBeLessThan(closed - 200)
      await page.getByRole('button', { name: 'Close alerts' }).click()
      await expect.poll(() => width(page, 'main')).toBe(closed)
    })

    it('docks the chart in a split resized by keyboard, and remembers the size after a reload', async () => {
      await page.locator('tbody tr[data-key] th button').first().click()
      const splitter = page.getByRole('separator', { name: 'Resize chart' })
      await splitter.focus()
      const chart = page.getByTestId('detail-view')
      const before = (await chart.boundingBox())?.height ?? 0
      await page.keyboard.press('PageUp')
      await expect.poll(() => splitter.getAttribute('aria-valuenow')).toBe('60')
      const after = (await chart.boundingBox())?.height ?? 0
      expect(after).toBeGreaterThan(before + 80)
      await expect.poll(() => env.app.settings.layout.detailSize).toBe(0.6)
      await page.reload()
      await page.locator('tbody tr[data-key] th button').first().click()
      await expect.poll(() => page.getByRole('separator').getAttribute('aria-valuenow')).toBe('60')
    })

    it('takes README screenshots at 1280x800 and 1920x1080', async () => {
      // The macro list (futures, FX, metals, indices, HK, A-shares) with a futures chart docked;
      // at 1280 the grid has the width, at 1920 the alerts panel is open beside it.
      await page.getByRole('tab', { name: 'Macro' }).click()
      await page.locator('tbody tr[data-key="futures:ES1!"] th button').click()
      await expect
        .poll(() => page.getByTestId('candle-chart').getAttribute('data-bars'), { timeout: 20_000 })
        .not.toBe('0')
      await page.waitForTimeout(1500)
      await readmeScreenshot(page, 'desk-1280x800')
      await page.setViewportSize({ width: 1920, height: 1080 })
      await page.getByRole('button', { name: /^Alerts/ }).click()
      await page.getByRole('combobox', { name: 'Add symbol' }).fill('gold')
      await page.getByRole('listbox').waitFor()
      await page.waitForTimeout(400)
      await readmeScreenshot(page, 'desk-1920x1080')
      await page.keyboard.press('Escape')
      await page.getByRole('combobox', { name: 'Add symbol' }).fill('')
      await page.setViewportSize({ width: 1280, height: 800 })
    })

    it('raises a Web Notification for a fired alert once the user allowed it', async () => {
      const quote = env.app.feed.engine.quotes.get('crypto:BTCUSDT')
      expect(quote?.last).toBeTypeOf('number')
      await env.app.invoke('addAlert', {
        key: 'crypto:BTCUSDT',
        condition: { kind: 'below', price: (quote?.last as number) * 2 },
      })
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __shown: unknown[] }).__shown), {
          timeout: 20_000,
        })
        .toEqual([
          expect.objectContaining({
            title: 'BTCUSDT alert',
            body: expect.stringContaining('BTCUSDT'),
          }),
        ])
      // A second tab raises it under the same tag, so the OS shows one notification.
      const shown = await page.evaluate(
        () => (window as unknown as { __shown: Array<{ tag: string }> }).__shown,
      )
      expect(shown[0]?.tag).toMatch(/.+/)
    })

    it('offers to allow notifications in Settings, from a click', async () => {
      await page.getByRole('button', { name: 'Settings' }).click()
      expect(await page.getByTestId('notify-state').textContent()).toMatch(/^On: fired alerts show/)
      await page.keyboard.press('Escape')
    })
  },
)

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()

async function shot(page: Page, name: string): Promise<void> {
  await readmeScreenshot(page, name)
}

async function textOf(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).first().textContent()) ?? '').trim()
}

describe.skipIf(!chromiumPath)(
  'a trader using Tickdesk in Chromium (browser host on the simulator)',
  () => {
    let desk: DeskInChromium
    let env: HostUnderTest
    let page: Page

    beforeAll(async () => {
      desk = await openDeskInChromium(chromiumPath as string, {
        context: { viewport: { width: 1600, height: 900 } },
      })
      ;({ env, page } = desk)
    })

    afterAll(async () => {
      await desk?.close()
    })

    it('adds crypto:SOLUSDT and sees it tick', async () => {
      const add = page.getByLabel('Add symbol')
      await add.fill('crypto:SOLUSDT')
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      const last = page.locator('tbody tr[data-key="crypto:SOLUSDT"] [data-field="last"]')
      await expect
        .poll(async () => ((await last.textContent()) ?? '').trim(), { timeout: 20_000 })
        .toMatch(/\d/)
      const first = ((await last.textContent()) ?? '').trim()
      await expect
        .poll(async () => ((await last.textContent()) ?? '').trim(), { timeout: 20_000 })
        .not.toBe(first)
      await expect
        .poll(() => textOf(page, '[data-testid="connection-state"]'), { timeout: 20_000 })
        .toBe('Live')
      await shot(page, 'live')
    })

    it('rejects a malformed symbol with a clear message and keeps the list', async () => {
      const rowsBefore = await page.locator('tbody tr[data-key]').count()
      await page.getByLabel('Add symbol').fill('not a symbol')
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      await expect
        .poll(async () => (await page.locator('body').textContent()) ?? '')
        .toMatch(/market:SYMBOL/)
      expect(await page.locator('tbody tr[data-key]').count()).toBe(rowsBefore)
    })

    it('fires an alert the trader created and shows it as a toast', async () => {
      const quote = env.app.feed.engine.quotes.get('crypto:SOLUSDT')
      expect(quote?.last).toBeTypeOf('number')
      // A "below" level far above the price is already met: it fires on the next tick.
      await env.app.invoke('addAlert', {
        key: 'crypto:SOLUSDT',
        condition: { kind: 'below', price: (quote?.last as number) * 2 },
      })
      await page.getByTestId('toast').first().waitFor({ timeout: 20_000 })
      expect(await textOf(page, '[data-testid="toast"]')).toContain('SOLUSDT')
      await shot(page, 'alert')
    })

    it('shows Offline and stale rows when the service goes away, and Live again when it is back', async () => {
      await env.sim.faults.down()
      await expect
        .poll(() => textOf(page, '[data-testid="connection-state"]'), { timeout: 45_000 })
        .toMatch(/Offline|Reconnecting/)
      await expect
        .poll(
          () => textOf(page, 'tbody tr[data-key="crypto:SOLUSDT"] [data-testid="source-badge"]'),
          { timeout: 20_000 },
        )
        .toMatch(/Stale/i)
      await shot(page, 'offline')
      await env.sim.faults.up()
      await expect
        .poll(() => textOf(page, '[data-testid="connection-state"]'), { timeout: 70_000 })
        .toBe('Live')
    })

    it('shows the cached watchlist at once after a restart, marked Cached', async () => {
      await env.restart()
      await env.sim.faults.down()
      const fresh = await desk.openPage({ context: { viewport: { width: 1600, height: 900 } } })
      const badge = fresh.locator(
        'tbody tr[data-key="crypto:SOLUSDT"] [data-testid="source-badge"]',
      )
      await expect
        .poll(async () => ((await badge.textContent()) ?? '').trim(), { timeout: 20_000 })
        .toMatch(/Cached|Stale/)
      const last = (
        (await fresh
          .locator('tbody tr[data-key="crypto:SOLUSDT"] [data-field="last"]')
          .textContent()) ?? ''
      ).trim()
      expect(last).toMatch(/\d/)
      await shot(fresh, 'cached')
      await env.sim.faults.up()
      await fresh.close()
    })
  },
)

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()

/** Every view a trader opens, checked by axe-core in light and dark, as it stands with live data. */
describe.skipIf(!chromiumPath)('accessibility of every view (axe-core in Chromium)', () => {
  let desk: DeskInChromium
  let page: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1280, height: 800 } },
    })
    page = desk.page
    await page.locator('tbody tr[data-key] [data-field="last"]').first().waitFor()
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('the desk: the grid, its sort headers named as they read, tabs and status bar', async () => {
    expect(await axeFindings(page)).toEqual([])
  })

  it('the columns dialog', async () => {
    await page.getByRole('button', { name: 'Columns' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    expect(await axeFindings(page, '[role="dialog"]')).toEqual([])
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
  })

  it('the detail chart and the new-alert form', async () => {
    await page.locator('tbody tr[data-key]').first().click()
    await page.keyboard.press('Enter')
    await page.getByTestId('candle-chart').waitFor({ timeout: 20_000 })
    expect(await axeFindings(page)).toEqual([])
    await page.keyboard.press('a')
    await page.getByRole('form', { name: 'New alert' }).waitFor()
    expect(await axeFindings(page)).toEqual([])
    await page.keyboard.press('Escape')
  })

  it('the alerts panel', async () => {
    const toggle = page.getByRole('button', { name: /^Alerts/ })
    // The new-alert form above opened the panel; open it only if that left it closed.
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
    await page.getByTestId('alerts-panel').waitFor()
    expect(await axeFindings(page)).toEqual([])
    await page.getByRole('button', { name: 'Close alerts' }).click()
  })

  it('the add box with its matches open', async () => {
    await page.keyboard.press('/')
    await page.keyboard.type('gold')
    const list = page.getByRole('listbox', { name: 'Instruments' })
    await list.waitFor({ timeout: 10_000 })
    await page.keyboard.press('ArrowDown')
    expect(await axeFindings(page)).toEqual([])
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
  })

  it('settings, in the dark theme too', async () => {
    await page.getByRole('button', { name: 'Settings' }).click()
    const panel = page.getByTestId('settings-panel')
    await panel.waitFor()
    expect(await axeFindings(page)).toEqual([])
    await panel.getByLabel('Theme').selectOption('dark')
    await page.keyboard.press('Escape')
    expect(await axeFindings(page)).toEqual([])
  })

  it('the ticker strip', async () => {
    const strip = await desk.openPage({
      path: '/strip',
      context: { viewport: { width: 960, height: 40 } },
    })
    await strip.getByTestId('ticker-strip').waitFor({ timeout: 20_000 })
    expect(await axeFindings(strip)).toEqual([])
    await strip.close()
  })
})

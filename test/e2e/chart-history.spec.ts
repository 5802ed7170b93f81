import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DETAIL_WINDOW } from '../../src/renderer/src/chart/bar-counts'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()
const KEY = 'crypto:ETHUSDT'
const row = (key: string): string => `tbody tr[data-key="${key}"]`

async function xSpan(page: Page): Promise<number> {
  const chart = page.getByTestId('candle-chart')
  return (
    Number(await chart.getAttribute('data-x-max')) - Number(await chart.getAttribute('data-x-min'))
  )
}

/**
 * A chart never shows an empty decade. Crypto has no candle endpoint, so a minute after start its
 * 1h chart has the one bar the app built from live prices: the chart says how many of its window
 * it has and since when, and its time axis spans that window, not years.
 */
describe.skipIf(!chromiumPath)('a chart with a short history (browser host)', () => {
  let desk: DeskInChromium
  let page: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1440, height: 900 } },
    })
    page = desk.page
    if ((await page.locator(row(KEY)).count()) === 0) {
      await page.getByLabel('Add symbol').fill(KEY)
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      await page.locator(row(KEY)).waitFor({ timeout: 20_000 })
    }
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('says the bars are built from live prices, how many and since when', async () => {
    await page.locator(`${row(KEY)} th button`).click()
    const chart = page.getByTestId('candle-chart')
    await expect.poll(() => chart.getAttribute('data-bars'), { timeout: 20_000 }).not.toBe('0')
    const note = page.getByTestId('chart-history')
    // Read together: the chart may move to a finer interval with more bars as it opens.
    const said = async (): Promise<boolean> => {
      const bars = Number(await chart.getAttribute('data-bars'))
      return new RegExp(
        `^Building: ${bars} of ${DETAIL_WINDOW} bars since .+, from live prices \\(this market has no candle endpoint\\)`,
      ).test((await note.textContent()) ?? '')
    }
    await expect.poll(said, { timeout: 10_000 }).toBe(true)
  })

  it("keeps the time axis to the chart's window of bars (an hour bar: hours, not years)", async () => {
    // A short history stands at its bars' width at the right of a window of DETAIL_WINDOW bars.
    const window = (DETAIL_WINDOW + 1) * 3600
    await expect.poll(() => xSpan(page), { timeout: 10_000 }).toBeGreaterThan(0)
    expect(await xSpan(page)).toBeLessThanOrEqual(window)
    await page.getByRole('button', { name: 'Reset zoom' }).click()
    expect(await xSpan(page)).toBeLessThanOrEqual(window)
  })

  it('loads older bars when zoomed out past the first bar, a request at a time', async () => {
    const key = 'futures:ES1!'
    await page.keyboard.press('Escape')
    await page.getByLabel('Add symbol').fill(key)
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.locator(row(key)).waitFor({ timeout: 20_000 })
    await page.locator(`${row(key)} th button`).click()
    const chart = page.getByTestId('candle-chart')
    await expect
      .poll(() => page.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
      .toBe(key)
    await expect.poll(() => chart.getAttribute('data-bars'), { timeout: 20_000 }).toBe('300')
    await chart.focus()
    await page.keyboard.press('-')
    await expect.poll(() => chart.getAttribute('data-bars'), { timeout: 20_000 }).toBe('600')
    // The wheel does the same over the plot.
    const box = await chart.boundingBox()
    await page.mouse.move((box?.x ?? 0) + 200, (box?.y ?? 0) + 100)
    await page.mouse.wheel(0, 120)
    await expect.poll(() => chart.getAttribute('data-bars'), { timeout: 20_000 }).toBe('1200')
  })
})

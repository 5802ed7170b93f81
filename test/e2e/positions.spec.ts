import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings } from './axe'
import { chromiumOrSkip, launchChromium } from './chromium'
import { launchStart, type Launched } from './launch'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()

/** Issue 24 in Chromium: a lot entered from the row with the keyboard only, its P&L live. */
describe.skipIf(!chromiumPath)('positions in the browser host (demo mode)', () => {
  let app: Launched
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    app = await launchStart()
    browser = await launchChromium(chromiumPath as string)
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.goto(app.url)
    await page.getByTestId('demo-badge').waitFor({ timeout: 20_000 })
    await page.locator('tbody tr[data-key="crypto:ETHUSDT"] [data-field="last"]').waitFor()
  })

  afterAll(async () => {
    await browser?.close()
    expect(await app?.stop()).toBe(0)
  })

  it('takes a lot by keyboard only and shows value and P&L that move with the price', async () => {
    await page.locator('body').press('ArrowDown')
    await page.locator('body').press('ArrowDown') // ETHUSDT, the second row
    await page.locator('body').press('l')
    const form = page.getByTestId('lot-form')
    await form.waitFor()
    expect(await form.innerText()).toContain('crypto:ETHUSDT')
    await page.keyboard.type('2')
    await page.keyboard.press('Tab')
    await page.keyboard.type('3000')
    await page.keyboard.press('Enter')
    const pnl = page.locator(
      '[data-testid="positions"] tr[data-key="crypto:ETHUSDT"] [data-field="pnl"]',
    )
    await pnl.waitFor({ timeout: 10_000 })
    const last = page.locator(
      '[data-testid="positions"] tr[data-key="crypto:ETHUSDT"] [data-field="last"]',
    )
    // P&L = 2 x (last - 3000), read off the same row.
    const check = async (): Promise<string> => {
      const l = Number((await last.innerText()).replace(/,/g, ''))
      const p = Number((await pnl.innerText()).replace(/[^\d.−-]/g, '').replace('−', '-'))
      return Math.abs(p - 2 * (l - 3000)) < 0.02 ? 'ok' : `${p} vs 2 x (${l} - 3000)`
    }
    await expect.poll(check, { timeout: 5_000 }).toBe('ok')
    const first = await pnl.innerText()
    await expect.poll(() => pnl.innerText(), { timeout: 20_000 }).not.toBe(first)
    expect(await page.getByTestId('positions-totals').innerText()).toMatch(/Total in USD/)
    expect(await axeFindings(page, '[data-testid="positions"]')).toEqual([])
    await readmeScreenshot(page, 'positions-1440x900')
  })
})

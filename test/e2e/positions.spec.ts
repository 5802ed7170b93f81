import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import { launchStart, type Launched } from './launch'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()
const demoShown = (page: Page): Promise<void> =>
  page.getByTestId('demo-badge').waitFor({ timeout: 20_000 })

/** Positions in Chromium: a lot entered from the row with the keyboard only, its P&L live. */
describe.skipIf(!chromiumPath)('positions in the browser host (demo mode)', () => {
  let desk: DeskInChromium<Launched>
  let page: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      serve: () => launchStart(),
      context: { viewport: { width: 1440, height: 900 } },
      ready: demoShown,
    })
    page = desk.page
    await page.locator('tbody tr[data-key="crypto:ETHUSDT"] [data-field="last"]').waitFor()
  })

  afterAll(async () => {
    await desk?.close()
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

  it('totals in the base currency the trader picks, the USDT lot through the service quotes', async () => {
    const base = page.getByLabel('Base currency')
    await base.selectOption('HKD')
    const totals = page.getByTestId('positions-totals')
    // The ETH lot is in USDT: crypto:USDTUSD and fx:USDHKD put it in HKD, never 1:1.
    await expect
      .poll(() => totals.innerText(), { timeout: 10_000 })
      .toMatch(/^Total in HKD: value [\d,.]+ HKD/)
    expect(await totals.innerText()).not.toMatch(/not converted|peg/)
    await base.selectOption('USD')
    await expect.poll(() => totals.innerText(), { timeout: 10_000 }).toMatch(/Total in USD/)
  })

  it('puts the stablecoin checkbox right beside its words', async () => {
    const peg = page.getByLabel('Count USDT and USDC at 1.00 USD')
    const gap = await peg.evaluate((box) => {
      const words = document.createRange()
      words.selectNodeContents(box.parentElement!)
      words.setStartAfter(box)
      // From the box's left edge: a checkbox sits centred in whatever width its input is given.
      return words.getBoundingClientRect().left - box.getBoundingClientRect().left
    })
    // A checkbox and a space, not the 7rem the lot form's inputs take.
    expect(gap).toBeGreaterThan(0)
    expect(gap).toBeLessThan(32)
  })
})

/**
 * Market sessions as the trader sees them, at a moment the test chooses: the page's clock is set
 * to a Saturday, when Hong Kong, Shanghai and FX are shut and crypto trades.
 */
describe.skipIf(!chromiumPath)('market sessions in the browser host (demo mode)', () => {
  let desk: DeskInChromium<Launched>

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      serve: () => launchStart(),
      context: { viewport: { width: 1440, height: 900 } },
      beforeLoad: (p) => p.clock.setFixedTime(new Date('2026-11-28T04:00:00Z')),
      ready: demoShown,
    })
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('says Closed with the next open on a weekend, not Stale; crypto stays live', async () => {
    const page = desk.page
    await page.getByRole('tab', { name: /Macro/ }).click()
    const row = (key: string) => page.locator(`tbody tr[data-key="${key}"]`)
    await row('hk:00700').waitFor()
    await expect
      .poll(() => row('hk:00700').getByTestId('source-badge').innerText(), { timeout: 10_000 })
      .toBe('Closed')
    expect(await row('hk:00700').getByTestId('session-next').innerText()).toBe('Mon 09:30')
    expect(await row('cn:600519').getByTestId('source-badge').innerText()).toBe('Closed')
    expect(await row('cn:600519').getByTestId('session-next').innerText()).toBe('Mon 09:30')
    expect(await row('fx:EURUSD').getByTestId('source-badge').innerText()).toBe('Closed')
    await readmeScreenshot(page, 'sessions-closed-1440x900')
    await page.getByRole('tab', { name: /Crypto/ }).click()
    await row('crypto:BTCUSDT').waitFor()
    expect(await row('crypto:BTCUSDT').getByTestId('source-badge').innerText()).not.toMatch(
      /Closed|Stale/,
    )
    await page.close()
  })
})

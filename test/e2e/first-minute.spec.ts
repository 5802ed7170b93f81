import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import { launchStart, type Launched } from './launch'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()

/**
 * The first minute, from outside: `npm start` in demo mode on a machine with no keychain (no D-Bus
 * session), opened at 1440x900, as a new user meets it. Measured on the DOM the way the user's
 * eyes see it: the text on screen and each sparkline's drawn points.
 */
describe.skipIf(!chromiumPath)('the first minute in demo mode with no keychain', () => {
  let desk: DeskInChromium<Launched>
  let page: Page
  let liveAt = 0

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      serve: () => launchStart({ DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' }),
      context: { viewport: { width: 1440, height: 900 } },
      ready: async (p) => {
        await p.getByTestId('demo-badge').waitFor({ timeout: 20_000 })
        await p.locator('tbody tr[data-key] polyline').first().waitFor({ timeout: 20_000 })
        liveAt = Date.now()
      },
    })
    page = desk.page
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('says nothing twice and nothing about a keychain before a key is entered', async () => {
    await page.waitForTimeout(1500)
    const banners = await page.locator('.banners [data-notice], .banners .banner').allTextContents()
    expect(new Set(banners).size).toBe(banners.length)
    expect(await page.locator('body').innerText()).not.toMatch(/keychain|D-Bus|libsecret/i)
  })

  // Counted from the first line drawn, not from opening: how long the page takes to open depends
  // on how loaded the machine is (a CI run beside the other specs took 7 s), the line's pace on the
  // app alone (a point every SPARK_MIN_STEP_MS at first, so about 2 a second in demo mode).
  it('draws every row a sparkline of at least 10 distinct points within 10 s of its first live prices', async () => {
    const fewest = () =>
      page.$$eval('tbody tr[data-key]', (rows) => {
        let least: [string, number] = ['no rows', 0]
        rows.forEach((r, i) => {
          const points = r.querySelector('polyline')?.getAttribute('points')?.trim() ?? ''
          const n = new Set(points.split(/\s+/).filter(Boolean)).size
          if (i === 0 || n < least[1]) least = [r.getAttribute('data-key') ?? '?', n]
        })
        return least
      })
    const deadline = liveAt + 10_000
    let least = await fewest()
    while (least[1] < 10 && Date.now() < deadline) {
      await page.waitForTimeout(250)
      least = await fewest()
    }
    expect(least[0]).not.toBe('no rows')
    expect(least[1], `${least[0]} after ${Date.now() - liveAt} ms`).toBeGreaterThanOrEqual(10)
  })

  it('shows a first-run view under the short demo list, and "?" opens every keyboard shortcut', async () => {
    const firstRun = page.getByTestId('first-run')
    expect(await firstRun.innerText()).toMatch(/demo mode/i)
    await readmeScreenshot(page, 'first-run-1440x900')
    expect(await axeFindings(page, '[data-testid="first-run"]')).toEqual([])
    await page.locator('body').press('?')
    const dialog = page.getByTestId('shortcuts-dialog')
    await dialog.waitFor()
    for (const words of ['Open the chart', 'New alert', 'Show these shortcuts', 'ticker strip'])
      expect(await dialog.innerText()).toContain(words)
    expect(await axeFindings(page, '[data-testid="shortcuts-dialog"]')).toEqual([])
    await readmeScreenshot(page, 'shortcuts-1440x900')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })

  it('speaks of the keychain in Settings once a key is typed, in a trader’s words, cause behind Details', async () => {
    await firstRunButton(page).click()
    const settings = page.getByTestId('settings-panel')
    await settings.waitFor()
    expect(await settings.innerText()).not.toMatch(/keychain/i)
    await page.getByLabel('API key').fill('sk-test-12345678')
    const warning = page.getByTestId('key-warning')
    await warning.waitFor()
    expect(await warning.innerText()).toContain('Your key will be kept until you quit')
    expect(await warning.locator('details').innerText()).toMatch(/^Details$/)
    expect(await axeFindings(page, '[data-testid="settings-panel"]')).toEqual([])
  })
})

function firstRunButton(page: Page) {
  return page.getByTestId('first-run').getByRole('button', { name: 'Add your API key' })
}

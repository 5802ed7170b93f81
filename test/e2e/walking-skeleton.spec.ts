import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import { launchStart, type Launched } from './launch'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()

describe.skipIf(!chromiumPath)('npm start in demo mode (browser host, real Chromium)', () => {
  let desk: DeskInChromium<Launched>
  let app: Launched

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      serve: () => launchStart(),
      ready: false,
    })
    app = desk.env
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('says it fell back to the browser host and prints the tokened address', () => {
    expect(app.output()).toContain('Starting the browser host instead')
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/)
  })

  it('refuses the page and the bridge without the token', async () => {
    const base = app.url.replace(/\?token=.*$/, '')
    expect((await fetch(base)).status).toBe(403)
    expect((await fetch(`${base}?token=wrong`)).status).toBe(403)
    expect((await fetch(`${base}assets/`)).status).toBe(403)
  })

  it('shows demo prices ticking with a DEMO badge', async () => {
    const page = await desk.openPage({ viewport: { width: 1600, height: 900 } })
    await page.getByTestId('demo-badge').waitFor({ timeout: 20_000 })
    const row = page.locator('tbody tr[data-key="crypto:BTCUSDT"]')
    const last = row.locator('[data-field="last"]')
    await expect
      .poll(async () => (await last.textContent())?.trim() ?? '', { timeout: 20_000 })
      .toMatch(/\d/)
    const first = (await last.textContent())?.trim()
    await expect
      .poll(async () => (await last.textContent())?.trim(), { timeout: 20_000 })
      .not.toBe(first)
    await readmeScreenshot(page, 'demo')
    await page.close()
  })
})

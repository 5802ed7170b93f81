import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()

const row = (key: string): string => `tbody tr[data-key="${key}"]`

async function tabNames(page: Page): Promise<string[]> {
  return page.getByRole('tablist', { name: 'Watchlists' }).getByRole('tab').allTextContents()
}

async function badgeOf(page: Page, key: string): Promise<string> {
  return (
    (await page.locator(`${row(key)} [data-testid="source-badge"]`).textContent()) ?? ''
  ).trim()
}

/** Runs one of the watchlist actions from the menu beside the tabs. */
async function listAction(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Watchlist actions' }).click()
  await page.getByRole('menuitem', { name, exact: true }).click()
}

async function addSymbol(page: Page, key: string): Promise<void> {
  await page.getByLabel('Add symbol').fill(key)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
}

describe.skipIf(!chromiumPath)('watchlists, settings and plan limits in Chromium', () => {
  let desk: DeskInChromium
  let env: HostUnderTest
  let page: Page
  /** Every frame the host sent the page over the bridge WebSocket. */
  const received: string[] = []

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1600, height: 900 }, acceptDownloads: true },
      browser: 'own', // the export test reads its downloads from disk
      beforeLoad: (p) =>
        p.on('websocket', (ws) => ws.on('framereceived', (f) => received.push(String(f.payload)))),
    })
    ;({ env, page } = desk)
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('creates, renames, reorders and deletes a watchlist tab', async () => {
    await listAction(page, 'New list…')
    await page.getByLabel('New watchlist name').fill('Metals')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    await expect.poll(() => tabNames(page)).toContain('Metals')
    await listAction(page, 'Rename…')
    await page.getByLabel('Watchlist name').fill('Gold and silver')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => tabNames(page)).toContain('Gold and silver')
    const before = await tabNames(page)
    const at = before.indexOf('Gold and silver')
    await listAction(page, 'Move left')
    await expect.poll(async () => (await tabNames(page)).indexOf('Gold and silver')).toBe(at - 1)
    await listAction(page, 'Delete…')
    await page.getByRole('button', { name: 'Confirm delete' }).click()
    await expect.poll(() => tabNames(page)).not.toContain('Gold and silver')
  })

  it('imports a JSON and a CSV file through the file input', async () => {
    const input = page.locator('input[type="file"]')
    const json = { watchlists: [{ name: 'From JSON', symbols: ['fx:EURUSD', 'crypto:ETHUSDT'] }] }
    await input.setInputFiles({
      name: 'lists.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(json)),
    })
    await expect.poll(() => tabNames(page)).toContain('From JSON')
    await input.setInputFiles({
      name: 'lists.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('watchlist,symbol\nFrom CSV,fx:USDJPY\nFrom CSV,crypto:BTCUSDT\n'),
    })
    await expect.poll(() => tabNames(page)).toContain('From CSV')
    await page.getByRole('tab', { name: 'From CSV' }).click()
    await expect
      .poll(() =>
        page
          .locator('tbody tr[data-key]')
          .evaluateAll((t) => t.map((r) => r.getAttribute('data-key'))),
      )
      .toEqual(['fx:USDJPY', 'crypto:BTCUSDT'])
  })

  it('exports the active list as JSON and as CSV downloads', async () => {
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      listAction(page, 'Export JSON'),
    ])
    expect(json.suggestedFilename()).toMatch(/\.json$/)
    const jsonText = readFileSync((await json.path())!, 'utf8')
    expect(JSON.stringify(JSON.parse(jsonText))).toContain('fx:USDJPY')
    const [csv] = await Promise.all([page.waitForEvent('download'), listAction(page, 'Export CSV')])
    expect(csv.suggestedFilename()).toMatch(/\.csv$/)
    const csvText = readFileSync((await csv.path())!, 'utf8')
    expect(csvText).toMatch(/From CSV,fx:USDJPY/)
    expect(csvText).toMatch(/From CSV,crypto:BTCUSDT/)
  })

  it('shows "Unknown symbol" for a symbol the service does not list', async () => {
    await addSymbol(page, 'crypto:NOSUCHCOIN')
    await expect
      .poll(
        async () =>
          (await page.locator(row('crypto:NOSUCHCOIN')).count()) > 0
            ? badgeOf(page, 'crypto:NOSUCHCOIN')
            : ((await page.locator('main').textContent()) ?? ''),
        { timeout: 20_000 },
      )
      .toMatch(/Unknown symbol/)
  })

  it('saves an API key, then shows only its masked suffix; the key is in no DOM node or host frame', async () => {
    const key = env.sim.keys.pro
    await page.getByRole('button', { name: 'Settings' }).click()
    const panel = page.getByTestId('settings-panel')
    if ((await panel.getByLabel('API key').count()) === 0)
      await panel.getByRole('button', { name: 'Replace' }).click()
    await panel.getByLabel('API key').fill(key)
    await panel.getByRole('button', { name: 'Save key' }).click()
    await expect
      .poll(() => panel.getByTestId('key-masked').textContent())
      .toBe(`••••${key.slice(-4)}`)
    const html = await page.evaluate<string>('document.documentElement.outerHTML')
    const values = await page
      .locator('input')
      .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))
    expect(html).not.toContain(key)
    expect(values).not.toContain(key)
    expect(received.length).toBeGreaterThan(0)
    expect(received.filter((f) => f.includes(key))).toEqual([])
  })

  it('runs "Test connection" and lists the doctor checks', async () => {
    const panel = page.getByTestId('settings-panel')
    await panel.getByRole('button', { name: 'Test connection' }).click()
    const report = panel.getByTestId('doctor-report')
    await report.waitFor({ timeout: 30_000 })
    expect(await report.locator('li').count()).toBeGreaterThan(1)
    expect(await report.textContent()).toMatch(/All checks passed|Some checks failed/)
  })

  it('shows where the logs are, since a page cannot open a folder, and copies the path', async () => {
    const logs = join(env.dataDir, 'logs')
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    const panel = page.getByTestId('settings-panel')
    await panel.getByRole('button', { name: 'Open log folder' }).click()
    await expect.poll(() => panel.getByLabel('Log folder').inputValue()).toBe(logs)
    await panel.getByRole('button', { name: 'Copy' }).click()
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(logs)
    expect(readFileSync(join(logs, 'tickdesk.log'), 'utf8')).toContain('"host":"web"')
  })

  it('switches the theme to dark and back to light through data-theme', async () => {
    const panel = page.getByTestId('settings-panel')
    const theme = panel.getByLabel('Theme')
    await theme.selectOption('dark')
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('dark')
    const bg = await page.evaluate('getComputedStyle(document.body).backgroundColor')
    expect(bg).toBe('rgb(17, 20, 24)')
    await panel.getByRole('button', { name: 'Close' }).click()
    await page.getByRole('tab').first().click()
    await readmeScreenshot(page, 'dark')
    await page.getByRole('button', { name: 'Settings' }).click()
    await page.getByTestId('settings-panel').getByLabel('Theme').selectOption('light')
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light')
    await page.keyboard.press('Escape')
  })

  it('says "Offline" or "Reconnecting in N s" when the service is down, and shows cached rows "as of HH:MM" after a restart', async () => {
    await addSymbol(page, 'crypto:SOLUSDT')
    const last = page.locator(`${row('crypto:SOLUSDT')} [data-field="last"]`)
    await expect
      .poll(async () => (await last.textContent()) ?? '', { timeout: 20_000 })
      .toMatch(/\d/)
    await env.sim.faults.down()
    const status = page.getByTestId('connection-state')
    await expect
      .poll(async () => ((await status.textContent()) ?? '').trim(), { timeout: 45_000 })
      .toMatch(/^(Offline|Reconnecting in \d+ s)$/)
    await env.restart()
    const fresh = await desk.openPage({ context: { viewport: { width: 1600, height: 900 } } })
    await expect.poll(() => badgeOf(fresh, 'crypto:SOLUSDT'), { timeout: 20_000 }).toBe('Cached')
    const age = fresh.locator(`${row('crypto:SOLUSDT')} [data-testid="quote-age"]`)
    expect(((await age.textContent()) ?? '').trim()).toMatch(/^as of \d\d:\d\d$/)
    await fresh.close()
    await env.sim.faults.up()
  })
})

describe.skipIf(!chromiumPath)('a key whose plan covers crypto only', () => {
  let desk: DeskInChromium

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      host: { key: (k) => k.cryptoOnly },
      context: { viewport: { width: 1600, height: 900 } },
    })
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('marks a futures symbol "Not in plan"', async () => {
    const page = desk.page
    await addSymbol(page, 'futures:ES1!')
    await expect.poll(() => badgeOf(page, 'futures:ES1!'), { timeout: 30_000 }).toBe('Not in plan')
  })
})
